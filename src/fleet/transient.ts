/**
 * Which failed runs the fleet requeues: those that failed for a cause that goes away by itself (the service
 * restarting, a network blip, a rate limit, a gateway error). A run that failed for a permanent cause (a 4xx,
 * an invalid recipe, an assert, a changed recipe) is not requeued: running it again would fail the same way.
 * Classified from the run report's error (its code, and the HTTP status where the error has one).
 */

/** Codes whose cause is transient whatever their details: no connection, no answer in time. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'C006', // cannot reach the service (refused, reset, DNS)
  'C007', // no answer within the timeout
  'C012', // cannot reach the service at all (the first request, the token exchange)
]);

/** The part of a run report's error this decision reads. */
export interface ReportedFailure {
  readonly code?: unknown;
  readonly status?: unknown;
}

/** True when a run that failed with `error` may succeed if run again later (requeue it). */
export function isTransientFailure(error: ReportedFailure | null | undefined): boolean {
  if (!error) return false;
  if (typeof error.code === 'string' && TRANSIENT_CODES.has(error.code)) return true;
  // C005 (a connector call), C013 (an http step), C002 (the token exchange): rate limited or a server error.
  return typeof error.status === 'number' && (error.status === 429 || (error.status >= 500 && error.status <= 599));
}
