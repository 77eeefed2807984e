import type { ForeachStep } from '../../compile/plan.js';
import { addChunkStats } from './distribute-stats.js';
import { evaluate } from '../../frame/eval.js';
import type { Scope } from '../../frame/scope.js';
import type {
  ChunkConnector,
  ChunkOutcome,
  DistributedForeach,
  ForeachDistributor,
} from '../../frame/distribute-types.js';
import type { StepContext } from '../../calls/step-context.js';

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
  const visit: DistributedForeach = {
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
  };
  let outcome: ChunkOutcome;
  try {
    outcome = await distributor.distribute(visit, stepCtx.signal);
  } catch (err) {
    // The step's own timeout (not the run's end: a resumed run waits for the same chunks): stop them.
    if (stepCtx.signal.aborted && !stepCtx.ctx.signal.aborted) await distributor.cancel?.(visit).catch(() => undefined);
    throw err;
  }
  // The chunks' requests count in this run's report, as a local foreach's would.
  state.tracker.requests += outcome.requests;
  state.tracker.retries += outcome.retries;
  state.recorder.writes += outcome.writes;
  for (const s of [...state.chain, stepCtx.stats]) {
    s.requests += outcome.requests;
    s.retries += outcome.retries;
  }
  if (outcome.steps) addChunkStats(step, state.tracker, state.depth + 1, state.plan.file, outcome.steps);
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
