import { RecipeError } from '../errors/index.js';
import type { RunReport } from '../run/index.js';
import { callbackDeliveryId, sendCallback } from '../triggers/callback.js';
import type { JobCallback, RunJobData, RunJobResult } from './job.js';
import type { WorkerContext } from './worker-context.js';

/**
 * The origin a worker journals for a job's run: the job's own (submit, trigger), else its schedule's; with the
 * result callback's URL (without its query, where tokens tend to be) and delivery id when the job has one, so
 * that `recipe runs show` says where the report went.
 */
export function originOfJob(data: RunJobData, runId: string): Readonly<Record<string, unknown>> | undefined {
  const origin =
    data.origin ?? (data.schedule !== undefined ? { kind: 'schedule', schedule: data.schedule } : undefined);
  if (!data.callback) return origin;
  const callback = { url: withoutQuery(data.callback.url), delivery_id: callbackDeliveryId(runId) };
  return { ...(origin ?? { kind: 'submit' }), callback };
}

/**
 * Posts a job's result callback once its run has ended for good, with the same signing, delivery id and retries
 * as `recipe run --callback` (src/triggers/callback.ts), the secret read from this worker's environment. Never
 * throws: the outcome is logged and returned for the job's result.
 */
export async function postJobCallback(
  ctx: WorkerContext,
  callback: JobCallback,
  report: RunReport,
): Promise<RunJobResult['callback']> {
  const runId = report.run_id;
  const secret = callback.secret_env !== undefined ? ctx.env[callback.secret_env] || undefined : undefined;
  if (callback.secret_env !== undefined && secret === undefined) {
    // Sending it unsigned would let a receiver that checks signatures take it for forged (or accept forgeries).
    ctx.log(`run ${runId}: G041 ${new RecipeError('G041', { runId, variable: callback.secret_env }).message}`);
    return { delivery_id: callbackDeliveryId(runId), delivered: false, attempts: 0, last_status: null };
  }
  const shown = withoutQuery(callback.url);
  const outcome = await sendCallback(
    {
      url: callback.url,
      ...(secret !== undefined ? { secret } : {}),
      ...(callback.attempts ? { attempts: callback.attempts } : {}),
    },
    runId,
    report,
  );
  ctx.log(
    outcome.delivered
      ? `run ${runId}: result callback delivered to ${shown} (${outcome.deliveryId}, attempt ${outcome.attempts})`
      : `run ${runId}: G030 ${new RecipeError('G030', { url: shown, attempts: outcome.attempts, reason: outcome.lastError ?? 'refused' }).message}`,
  );
  return {
    delivery_id: outcome.deliveryId,
    delivered: outcome.delivered,
    attempts: outcome.attempts,
    last_status: outcome.lastStatus,
  };
}

function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
