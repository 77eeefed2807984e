import type { RunReport } from '../../frame/report.js';

/** Codes of an outside call that did not finish: the same call may well succeed when sent again. */
const TRANSIENT = new Set(['C006', 'C007', 'C008', 'X005', 'X006', 'X009', 'C011', 'J009']);
/** Codes a configuration fixes (credentials, service URL, secrets, connector): nothing recorded is wrong. */
const CONFIG = new Set(['C001', 'C002', 'C003', 'C004', 'C012', 'X013', 'X015', 'J007']);
/** A dry run sends no write and keeps nothing worth resuming. */
const DRY_RUN = new Set(['X017']);

/**
 * The line `recipe run` prints after a run that did not succeed: what to do next. `recipe resume` only
 * when a resume can help (interrupted, a transient failure: a 5xx, a 429, a timeout, a lost connection;
 * writes in doubt, which J004 settles); after a 4xx or a failure in the recipe itself (an assert, an
 * expression, an invalid value), fix the recipe or its inputs and redrive with `--allow-changed`; after a
 * configuration error, fix it and run again (the run sent nothing that needs replaying).
 */
export function failureAdvice(report: RunReport): string | undefined {
  if (report.status === 'ok') return undefined;
  const id = report.run_id;
  const code = report.error?.code ?? '';
  const status = report.error?.status;
  if (report.status === 'interrupted' || TRANSIENT.has(code) || (status !== undefined && transientStatus(status)))
    return `run ${id} ${report.status}; resume it with: recipe resume ${id} (recorded calls replay, the rest is sent)`;
  if (CONFIG.has(code) || status === 401 || status === 403)
    return `run ${id} failed on its configuration (the error below); a resume alone would fail the same way: fix that first, then run it again (or \`recipe resume ${id}\` to replay the calls it already made)`;
  if (DRY_RUN.has(code) || report.dry_run) return `dry run ${id} failed; fix the recipe or its inputs and run it again`;
  const what = status !== undefined ? `the service refused a request (HTTP ${status})` : 'the recipe failed';
  return (
    `run ${id} failed: ${what} (the error below); a resume as it is would fail the same way. Fix the recipe, ` +
    `then redrive it: \`recipe resume ${id} --allow-changed\` (successful calls replay, the failed one is sent ` +
    'as the recipe now says); a wrong input needs a new run with the right one (a resume keeps the inputs)'
  );
}

function transientStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}
