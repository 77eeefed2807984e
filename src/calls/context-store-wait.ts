import { RecipeError } from '../errors/index.js';
import type { StepContext } from './step-context.js';
import { locationOf } from '../frame/step-errors.js';
import { inspect } from './call-kinds.js';

/** How long to wait when the step has no timeout_ms. */
const DEFAULT_WAIT_MS = 120_000;
const POLL_MS = 500;

/**
 * wait_for_context_store: polls inspect until the entity's context store is ready_for_search
 * (context_store_readiness.configured_cache_entities[]), bounded by the step's timeout_ms.
 */
export async function waitForContextStore(stepCtx: StepContext, connectorId: string, entity: string): Promise<void> {
  const timeoutMs = stepCtx.step.timeoutMs ?? DEFAULT_WAIT_MS;
  const deadline = stepCtx.ctx.now() + timeoutMs;
  let status = 'unknown';
  for (;;) {
    const info = await inspect(stepCtx, connectorId);
    const row = entityReadiness(info, entity);
    if (row?.ready_for_search === true) return;
    status = typeof row?.status === 'string' ? row.status : String(info.context_store_status ?? 'unknown');
    stepCtx.ctx.log('debug', `${stepCtx.stats.id}: context store for ${entity} is ${status}; waiting`);
    const left = deadline - stepCtx.ctx.now();
    if (left <= 0) break;
    try {
      await stepCtx.ctx.sleep(Math.min(POLL_MS, left), stepCtx.signal);
    } catch {
      if (stepCtx.state.signal.aborted) throw new RecipeError('X009', {}, locationOf(stepCtx.step.loc));
      break; // the step's own timeout fired
    }
  }
  throw new RecipeError('X006', { entity, timeoutMs, status }, locationOf(stepCtx.step.loc));
}

function entityReadiness(info: Record<string, unknown>, entity: string): Record<string, unknown> | undefined {
  const readiness = info.context_store_readiness as { configured_cache_entities?: unknown } | undefined;
  const rows = readiness?.configured_cache_entities;
  if (!Array.isArray(rows)) return undefined;
  return rows.find((r: { entity?: unknown }) => r?.entity === entity) as Record<string, unknown> | undefined;
}
