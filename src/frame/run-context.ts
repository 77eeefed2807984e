import type {
  CallOptions,
  Download,
  Envelope,
  ExecuteRequest,
  HttpAnswer,
  HttpCallRequest,
  Redactor,
} from '../client/index.js';
import type { ConnectorLookup } from '../client/index.js';
import type { SourceLoc } from '../compile/plan.js';
import type { ForeachDistributor } from './distribute-types.js';

/** The part of the connector client the interpreter uses (the real ConnectorClient in production and tests). */
export interface ConnectorApi {
  execute(connectorId: string, req: ExecuteRequest, opts?: CallOptions): Promise<Envelope>;
  download(connectorId: string, req: ExecuteRequest, opts?: CallOptions): Promise<Download>;
  inspect(connectorId: string, opts?: CallOptions): Promise<Record<string, unknown>>;
  resolveConnector(ref: ConnectorLookup, opts?: CallOptions): Promise<string>;
  /** A request outside the connector API (http steps). */
  http(req: HttpCallRequest, opts?: CallOptions): Promise<HttpAnswer>;
  /** True once the service said it honours Idempotency-Key (the real client learns it from answers). */
  readonly idempotencyHonoured?: boolean;
  /** Asks whether the service honours Idempotency-Key (before a resume settles writes in doubt). */
  probeIdempotencyKeys?(opts?: CallOptions): Promise<boolean>;
  /** Learns which actions write from an inspect answer (`actions[].write`), also one replayed from the journal. */
  learnActions?(connectorId: string, inspectAnswer: unknown): void;
  /** Whether entity.action writes: what the connector's service said, else the name rule. */
  isWriteAction?(connectorId: string, entity: string, action: string): boolean;
  /** True once the connector's service said which of its actions write. */
  knowsActions?(connectorId: string): boolean;
}

export type LogLevel = 'info' | 'warn' | 'debug';

/** A request about to leave for a URL outside the connector API (an http step), as RunContext.beforeOutside sees it. */
export interface OutsideRequest {
  /** The step that sends it (its path in the run, e.g. notify or items[2].post). */
  readonly stepPath: string;
  readonly loc: SourceLoc;
  readonly method: string;
  /** Absolute URL, query included. */
  readonly url: string;
  /** Lower-case names, as the step set them. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Progress of one step, as the CLI draws it. Counters include nested steps. */
export interface StepProgress {
  readonly key: string;
  readonly id: string;
  readonly kind: string;
  readonly depth: number;
  readonly records: number;
  readonly done: number;
  readonly total: number | null;
  readonly requests: number;
  readonly retries: number;
}

/** What a run tells its caller while it goes. */
export type RunEvent =
  | { readonly type: 'step-start'; readonly step: StepProgress }
  | { readonly type: 'step-progress'; readonly step: StepProgress }
  | { readonly type: 'step-end'; readonly step: StepProgress; readonly status: string };

/**
 * Everything the interpreter may touch outside itself: the client, time, chance, sleep, files, logs.
 * The interpreter is deterministic given the client's answers and these functions.
 */
export interface RunContext {
  readonly client: ConnectorApi;
  now(): number;
  random(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Cancels everything (Ctrl-C). */
  readonly signal: AbortSignal;
  /** Masks secret values at every output edge (logs, report, errors). */
  readonly redactor: Redactor;
  readonly dryRun: boolean;
  /** Guardrails: a cap on the pages of every paginate step (over its max_pages), and a total request budget. */
  readonly maxPages?: number;
  readonly maxRequests?: number;
  /** Where the recipe's secrets are read from (only the names the recipe declares). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory that download paths are relative to. */
  readonly cwd: string;
  /** Writes a file atomically (temporary file, then rename). */
  writeFile(path: string, bytes: Buffer): Promise<void>;
  /** A log line, already redacted. */
  log(level: LogLevel, message: string): void;
  /** False when nobody reads debug lines: the per-request ones are then not made (a string and its masking each). */
  readonly debug?: boolean;
  /** Told about each environment variable the run reads (the journal records the names, never the values). */
  onEnvRead?(name: string): void;
  onEvent?(event: RunEvent): void;
  /**
   * Asked before each request to a URL outside the connector API is sent (every attempt of it); a rejection
   * refuses the request before any socket is opened (`recipe test` with the network off and no mock for it).
   */
  beforeOutside?(req: OutsideRequest): Promise<void>;
  /** The run's default `max_duration` for transient failures (--retry-for); undefined: DEFAULT_RETRY_FOR_MS. */
  readonly retryForMs?: number;
  /** A call is waiting out an outage (past its attempts): a warning, at most one every few seconds per run. */
  waiting?(message: string): void;
  /** Set by a fleet worker: a foreach with `distribute` sends its items to the fleet in chunks through it. */
  readonly distributor?: ForeachDistributor;
}
