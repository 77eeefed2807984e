import { InvalidArgumentError } from 'commander';

/** `--now ISO`: an ISO 8601 date-time with a time zone (Z or ±hh:mm), or a bare date (midnight UTC); in ms. */
export function parseNow(value: string): number {
  const text = value.trim();
  const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
  const ms = dateTime.test(text) || dateOnly.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms))
    throw new InvalidArgumentError('expected an ISO 8601 date-time with a zone, e.g. 2026-07-15T09:00:00Z');
  return ms;
}

/**
 * The run's clock under --now: it reads exactly `startMs` the first time ($run.started_at is the pinned
 * instant) and advances in real time from then on, so durations, waits and timeouts still work.
 */
export function clockFrom(startMs: number, real: () => number = Date.now): () => number {
  let origin: number | undefined;
  return () => {
    const t = real();
    origin ??= t;
    return startMs + (t - origin);
  };
}
