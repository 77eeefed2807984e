import type { ConnectorCatalog } from '../catalog/index.js';
import type { ConnectionConfig, ConnectorClient } from '../client/index.js';
import type { JournalStore } from '../journal/index.js';
import type { RunTracer } from '../telemetry/index.js';
import type { SpareSlots } from './distribute/spare-slots.js';
import type { StoreConnections } from './store-connections.js';

/**
 * What a worker gives each job it processes (run jobs here, chunk jobs in src/fleet/distribute/): the
 * fleet's store and journal, the recipes on this machine, and this worker's own connection and secrets.
 */
export interface WorkerContext {
  /** The fleet's store, connected: flows, visits and fleet-wide limits go through it (Redis or PostgreSQL). */
  readonly connections: StoreConnections;
  readonly queue: string;
  /** The recipes directory jobs name their recipe in. */
  readonly recipesDir: string;
  /** The fleet's run journal (in the same store); the interface only, so that any backend can serve. */
  readonly journal: JournalStore;
  /** Where secret values and settings come from: this worker's environment, never the store. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The connector service this worker talks to. */
  readonly connection: ConnectionConfig;
  /**
   * The catalog of this worker's service that every job's recipe is checked against before it runs (asked
   * once per worker; undefined when the service publishes none).
   */
  catalog(): Promise<ConnectorCatalog | undefined>;
  /** A client for one job (closed by the job); fleet-wide rate limits, when set, apply to it. */
  newClient(): ConnectorClient;
  /** --max-rps-per-connector, if given. */
  readonly maxRpsPerConnector?: number;
  /** Slots the worker lends a run that waits for its distributed chunks (src/fleet/distribute/). */
  readonly slots?: SpareSlots;
  /** Traces of this worker's runs, when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (docs/tracing.md). */
  readonly tracer?: RunTracer;
  /** host:pid, in logs and in the journal's holder. */
  readonly workerName: string;
  /** One line to the worker's log (stderr). */
  log(line: string): void;
}
