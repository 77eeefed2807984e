import type { ConnectorCatalog } from '../catalog/index.js';
import type { ConnectionConfig } from '../client/index.js';
import type { Diagnostic } from '../errors/index.js';
import type { JournalStore } from '../journal/index.js';
import { loadRunnable, startRun, type RunEvent, type RunReport, type Runnable } from '../run/index.js';

/** What runs a trigger's (or an MCP call's) recipe in this process: the service, its catalog, the journal. */
export interface LocalRunnerOptions {
  readonly connection: ConnectionConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The catalog of the service the runs talk to; recipes are checked against it as `recipe validate --online`. */
  readonly catalog?: ConnectorCatalog;
  readonly journal: JournalStore;
  readonly log?: (message: string) => void;
}

/** A checked recipe with its inputs resolved. */
export type ReadyRun = Extract<Runnable, { readonly diagnostics: [] }>;

/** A recipe with its inputs checked, ready to start; or why it cannot start (nothing was sent). */
export type Checked =
  | { readonly ok: true; readonly runnable: ReadyRun }
  | { readonly ok: false; readonly invalid: 'recipe' | 'inputs'; readonly diagnostics: Diagnostic[] };

/** How one run is started: its id, its origin (journaled), dry run or not, progress events. */
export interface StartOptions {
  readonly runId: string;
  readonly origin: Readonly<Record<string, unknown>>;
  readonly dryRun: boolean;
  readonly onEvent?: (e: RunEvent) => void;
  readonly signal?: AbortSignal;
}

/**
 * Starts runs in this process through the one way to start a run (run/start-run.ts): every delivery checks the
 * recipe again (an edit on disk is picked up, and an edit that breaks it refuses deliveries with the same
 * diagnostics as `recipe validate`), resolves its inputs, and journals the run with its origin.
 */
export class LocalRunner {
  constructor(private readonly o: LocalRunnerOptions) {}

  /** Checks the recipe and resolves the inputs (strings coerced to the declared types). */
  async check(file: string, inputs: Readonly<Record<string, unknown>>): Promise<Checked> {
    const runnable = await loadRunnable(file, inputs, this.o.catalog ? { catalog: this.o.catalog } : {});
    if (!runnable.recipe) return { ok: false, invalid: runnable.invalid, diagnostics: runnable.diagnostics };
    return { ok: true, runnable: runnable as ReadyRun };
  }

  /** Runs a checked recipe to its end (startRun); its report, journaled under `runId`. */
  async run(checked: ReadyRun, s: StartOptions): Promise<RunReport> {
    return startRun(checked.recipe, {
      inputs: checked.inputs,
      connection: this.o.connection,
      env: this.o.env,
      journal: this.o.journal,
      runId: s.runId,
      origin: s.origin,
      dryRun: s.dryRun,
      ...(this.o.catalog ? { catalog: this.o.catalog } : {}),
      ...(s.onEvent ? { onEvent: s.onEvent } : {}),
      ...(s.signal ? { signal: s.signal } : {}),
      log: (level, message) => {
        if (level !== 'debug') this.o.log?.(`${s.runId}: ${message}`);
      },
    });
  }

  get journal(): JournalStore {
    return this.o.journal;
  }
}
