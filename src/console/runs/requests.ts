import { catalog, formatTemplate } from '../../errors/index.js';
import type { ExchangeRecord } from '../../journal/index.js';
import type { RequestView } from '../run-api-types.js';

/** Longest request text a page carries; the journal keeps it whole. */
const REQUEST_SHOWN = 4000;

/** A journaled exchange as the run page shows it: no answer (it can be large), the error as a message. */
export function requestView(x: ExchangeRecord): RequestView {
  return {
    seq: x.seq,
    call_key: x.call_key,
    step_path: x.step_path,
    line: x.line,
    attempt: x.attempt,
    kind: x.kind,
    method: x.method,
    path: x.path,
    entity: x.entity,
    action: x.action,
    write: x.write,
    state: x.state,
    status: x.status,
    latency_ms: x.latency_ms,
    retries: x.retries,
    sent_at: x.sent_at,
    doubt: x.doubt,
    settled_by: x.settled_by,
    error: x.error === null ? null : errorOf(x.error),
    request: x.request.length > REQUEST_SHOWN ? `${x.request.slice(0, REQUEST_SHOWN)}…` : x.request,
  };
}

/** The journal keeps an error as {code, params} (masked); its message comes from the catalog's template. */
function errorOf(text: string): { code: string; message: string } {
  try {
    const e = JSON.parse(text) as { code?: unknown; params?: unknown };
    const code = typeof e.code === 'string' ? e.code : 'X001';
    const params = e.params !== null && typeof e.params === 'object' ? (e.params as Record<string, unknown>) : {};
    // The code comes from the journal's record: own keys of the catalog only.
    const entry = Object.hasOwn(catalog, code) ? (catalog as Record<string, { template: string }>)[code] : undefined;
    return { code, message: entry ? formatTemplate(entry.template, params) : String(params.message ?? code) };
  } catch {
    return { code: 'X001', message: text };
  }
}
