/** The plain-data contract between a distributed foreach (run/distribute.ts) and a fleet (src/fleet/distribute/). */

/**
 * A distributed foreach as the interpreter hands it to a fleet: plain data that crosses Redis, so every
 * value in it is masked (no secret reaches Redis; a worker reads $secrets from its own environment).
 * A worker that runs a chunk rebuilds the visit from this and the recipe file, and keys its calls as this
 * run would have: item i's calls are `<stepPath>[i]...`, whichever worker sends them.
 */
export interface DistributedForeach {
  readonly runId: string;
  /** The file the foreach is in (as the plan has it: a `call`ed recipe's own file) and its JSON pointer there. */
  readonly file: string;
  readonly pointer: string;
  /** This visit's step path (`sync`, or `accounts[2].sync` inside another loop). */
  readonly stepPath: string;
  /** The frame the foreach runs in: its step path without its own id. */
  readonly frame: string;
  /** Indexes of the enclosing loops, outermost first. */
  readonly loop: readonly number[];
  readonly depth: number;
  /** Items per chunk (`distribute.chunk`). */
  readonly chunk: number;
  readonly items: readonly unknown[];
  /** Every variable the body can see, masked, without $secrets (each worker reads its own). */
  readonly bindings: Readonly<Record<string, unknown>>;
  /** The `http.allow` lists in force (the recipe's and its callers'). */
  readonly httpAllow: readonly (readonly string[])[];
  /** The default connector, evaluated by the run: an id, or a workspace and definition each chunk looks up. */
  readonly connector?: ChunkConnector;
}

export type ChunkConnector = { readonly id: string } | { readonly workspace?: string; readonly definition: string };

/** What running a chunk (or all of them) did: each item's result in item order, and the counters. */
export interface ChunkOutcome {
  readonly results: unknown[];
  readonly requests: number;
  readonly retries: number;
  readonly writes: number;
  /** What each step inside the loop did, in bodySteps() order (the same plan on every worker). */
  readonly steps?: readonly ChunkStepStats[];
}

/** One step's counters from a chunk, added to the run's report row of that step. */
export interface ChunkStepStats {
  readonly runs: number;
  readonly skippedRuns: number;
  readonly durationMs: number;
  readonly requests: number;
  readonly retries: number;
  readonly records: number;
  readonly status: string;
}

/**
 * Spreads a distributed foreach over a fleet (set on the run context by a fleet worker, see
 * src/fleet/distribute/). Resolves to every item's result in item order; throws the error of a chunk that
 * failed for good (after the queue's retries), as a local foreach throws its first failure.
 */
export interface ForeachDistributor {
  distribute(visit: DistributedForeach, signal: AbortSignal): Promise<ChunkOutcome>;
  /** Stops the visit's chunks still running (the step's own timeout ended it; the run goes on). */
  cancel?(visit: DistributedForeach): Promise<void>;
}
