import type { ExchangeRecord } from './types.js';

/**
 * The one rule of a write in doubt, for every backend: a write that may have been applied but has no usable
 * answer. An intent never answered (the process died between send and answer), a failure that may hide an
 * applied write (no answer, a 5xx, a timeout: `doubt`), or an answer that masking a secret changed (it
 * cannot be replayed as it was).
 */
export function isWriteInDoubt(e: Pick<ExchangeRecord, 'write' | 'state' | 'doubt' | 'redacted'>): boolean {
  if (!e.write) return false;
  return e.state === 'intent' || (e.state === 'failed' && e.doubt) || (e.state === 'answered' && e.redacted);
}
