import { isAbsolute, resolve } from 'node:path';
import type { DownloadStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { locationOf } from './errors.js';
import { evaluate } from './eval.js';
import type { StepExec } from './exec.js';
import type { StepOutcome } from './interpret.js';
import { asParams } from './request.js';
import { callService } from './service-call.js';
import { downloadCall } from './service-calls.js';
import type { Scope } from './scope.js';

/**
 * download: fetches the bytes (never empty: the client refuses an empty body) and writes them to `to`
 * atomically. Under --dry-run the bytes are fetched (a read) but no file is written.
 * Output: {path, bytes, content_type, filename}.
 */
export async function runDownload(step: DownloadStep, scope: Scope, sx: StepExec): Promise<StepOutcome> {
  const params = asParams(await evaluate(step.params, scope), sx);
  const to = await evaluate(step.to, scope);
  if (typeof to !== 'string' || to.trim() === '') {
    throw new RecipeError(
      'X007',
      { what: 'download `to`', expected: 'a non-empty path', got: typeof to },
      locationOf(step.loc),
    );
  }
  const path = isAbsolute(to) ? to : resolve(sx.ctx.cwd, to);
  const connectorId = await sx.connectorId(scope, step);
  const file = await callService(sx, downloadCall(sx, connectorId, step.entity, step.action, params));
  if (!sx.ctx.dryRun) {
    try {
      await sx.ctx.writeFile(path, file.bytes);
    } catch (err) {
      throw new RecipeError('X010', { path, reason: (err as Error).message }, locationOf(step.loc), { cause: err });
    }
  }
  sx.stats.records++;
  const output = {
    path,
    bytes: file.bytes.length,
    content_type: file.contentType,
    filename: file.filename,
    ...(sx.ctx.dryRun ? { dry_run: true } : {}),
  };
  return { output };
}
