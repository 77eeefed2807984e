import type { ForeachStep } from '../compile/plan.js';
import { evaluate } from './eval.js';
import type { Scope } from './scope.js';
import type { StepContext } from './step-context.js';

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
}

/**
 * Spreads a distributed foreach over a fleet (set on the run context by a fleet worker, see
 * src/fleet/distribute/). Resolves to every item's result in item order; throws the error of a chunk that
 * failed for good (after the queue's retries), as a local foreach throws its first failure.
 */
export interface ForeachDistributor {
  distribute(visit: DistributedForeach, signal: AbortSignal): Promise<ChunkOutcome>;
}

/** The holder's side of a distributed foreach: describes the visit, hands it over, counts what came back. */
export async function distributeForeach(
  step: ForeachStep,
  items: readonly unknown[],
  scope: Scope,
  stepCtx: StepContext,
  distributor: ForeachDistributor,
): Promise<unknown[]> {
  const state = stepCtx.state;
  const redactor = stepCtx.ctx.redactor;
  const bindings = { ...scope.bindings() };
  delete bindings.secrets;
  const connector = await defaultConnector(stepCtx, scope);
  const outcome = await distributor.distribute(
    {
      runId: String(state.run.id),
      file: step.loc.file,
      pointer: step.loc.pointer,
      stepPath: stepCtx.path,
      frame: state.frame,
      loop: [...(state.loop ?? [])],
      depth: state.depth,
      chunk: step.distribute?.chunk ?? items.length,
      items: redactor.redactValue([...items]),
      bindings: redactor.redactValue(bindings),
      httpAllow: state.httpAllow,
      ...(connector ? { connector } : {}),
    },
    stepCtx.signal,
  );
  // The chunks' requests count in this run's report, as a local foreach's would.
  state.tracker.requests += outcome.requests;
  state.tracker.retries += outcome.retries;
  state.recorder.writes += outcome.writes;
  for (const s of [...state.chain, stepCtx.stats]) {
    s.requests += outcome.requests;
    s.retries += outcome.retries;
  }
  stepCtx.stats.done += items.length;
  stepCtx.progress();
  return outcome.results;
}

/** The recipe's default connector as this run sees it, evaluated here (chunks get plain strings). */
async function defaultConnector(stepCtx: StepContext, scope: Scope): Promise<ChunkConnector | undefined> {
  const ref = stepCtx.state.defaultConnector;
  if (!ref) return undefined;
  if (ref.kind === 'id') return { id: String(await evaluate(ref.id, scope)) };
  const definition = String(await evaluate(ref.definition, scope));
  if (!ref.workspace) return { definition };
  return { workspace: String(await evaluate(ref.workspace, scope)), definition };
}
