import type { DownloadStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { confinePath } from '../frame/confined-path.js';
import { locationOf } from '../frame/step-errors.js';
import { evaluate } from '../frame/eval.js';
import type { StepContext, StepOutcome } from '../calls/step-context.js';
import { asParams } from '../calls/execute-request.js';
import { callService } from '../calls/call-service.js';
import { downloadCall, stepConnectorId } from '../calls/call-kinds.js';
import type { Scope } from '../frame/scope.js';

/**
 * download: fetches the bytes (never empty: the client refuses an empty body) and writes them to `to`
 * atomically. Under --dry-run the bytes are fetched (a read) but no file is written.
 * Output: {path, bytes, content_type, filename}.
 */
export async function runDownload(step: DownloadStep, scope: Scope, stepCtx: StepContext): Promise<StepOutcome> {
  const params = asParams(await evaluate(step.params, scope), stepCtx);
  const to = await evaluate(step.to, scope);
  if (typeof to !== 'string' || to.trim() === '') {
    throw new RecipeError(
      'X007',
      { what: 'download `to`', expected: 'a non-empty path', got: typeof to },
      locationOf(step.loc),
    );
  }
  // Refused before the download starts: a name from an input or a connector must not write anywhere.
  const confined = confinePath(stepCtx.ctx.cwd, to);
  if ('outside' in confined && !step.allowOutside)
    throw new RecipeError('X020', { path: to, reason: confined.outside }, locationOf(step.loc));
  const path = confined.path;
  const connectorId = await stepConnectorId(stepCtx, scope, step);
  const file = await callService(stepCtx, downloadCall(stepCtx, connectorId, step.entity, step.action, params));
  if (!stepCtx.ctx.dryRun) {
    try {
      await stepCtx.ctx.writeFile(path, file.bytes);
    } catch (err) {
      throw new RecipeError('X010', { path, reason: (err as Error).message }, locationOf(step.loc), { cause: err });
    }
  }
  stepCtx.stats.records++;
  const output = {
    path,
    bytes: file.bytes.length,
    content_type: file.contentType,
    filename: file.filename,
    ...(stepCtx.ctx.dryRun ? { dry_run: true } : {}),
  };
  return { output };
}
