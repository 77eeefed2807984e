import { RecipeError } from '../errors/index.js';
import { isValidRunId } from '../run/index.js';
import type { RunJobData } from './job.js';

/**
 * Checks a run job's data as it came out of Redis (anyone who can write to the queue can put a job there):
 * F004 with what is wrong. Returns the data typed.
 */
export function checkRunJobData(data: unknown, jobId: string): RunJobData {
  const bad = (reason: string): never => {
    throw new RecipeError('F004', { jobId, reason });
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return bad('its data is not an object');
  const d = data as Record<string, unknown>;
  if (typeof d.recipe !== 'string' || d.recipe === '') bad('"recipe" is not a path');
  if (typeof d.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(d.sha256)) bad('"sha256" is not a hex SHA-256');
  if (!Array.isArray(d.files) || !d.files.every(isPin)) bad('"files" is not a list of {path, sha256}');
  if (
    d.lock_sha256 !== undefined &&
    d.lock_sha256 !== null &&
    (typeof d.lock_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(d.lock_sha256))
  )
    bad('"lock_sha256" is neither null nor a hex SHA-256');
  if (typeof d.inputs !== 'object' || d.inputs === null || Array.isArray(d.inputs)) bad('"inputs" is not an object');
  if (!Array.isArray(d.secrets) || !d.secrets.every((s) => typeof s === 'string'))
    bad('"secrets" is not a list of names');
  if (d.run_id !== undefined && (typeof d.run_id !== 'string' || !isValidRunId(d.run_id)))
    bad('"run_id" is not a valid run id');
  if (d.dry_run !== undefined && typeof d.dry_run !== 'boolean') bad('"dry_run" is not a boolean');
  if (d.connector !== undefined && typeof d.connector !== 'string') bad('"connector" is not a string');
  if (d.schedule !== undefined && typeof d.schedule !== 'string') bad('"schedule" is not a string');
  if (typeof d.submitted_at !== 'number') bad('"submitted_at" is not a number');
  if (d.jitter_ms !== undefined && (typeof d.jitter_ms !== 'number' || !(d.jitter_ms >= 0)))
    bad('"jitter_ms" is not a number of ms');
  if (d.jittered !== undefined && typeof d.jittered !== 'boolean') bad('"jittered" is not a boolean');
  if (d.redrive !== undefined && !isRedrive(d.redrive))
    bad('"redrive" is not {allow_changed, retry_failed_items, assume_sent, assume_not_sent, requested_at}');
  if (d.origin !== undefined && !isObject(d.origin)) bad('"origin" is not an object');
  if (d.callback !== undefined && !isCallback(d.callback)) bad('"callback" is not {url, secret_env?, attempts?}');
  return d as unknown as RunJobData;
}

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An http(s) URL, a variable name, 1 to 10 attempts: what `--callback` and trigger files accept. */
function isCallback(c: unknown): boolean {
  if (!isObject(c)) return false;
  const o = c as Record<string, unknown>;
  return (
    typeof o.url === 'string' &&
    /^https?:\/\//.test(o.url) &&
    (o.secret_env === undefined ||
      (typeof o.secret_env === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(o.secret_env))) &&
    (o.attempts === undefined ||
      (Number.isInteger(o.attempts) && (o.attempts as number) >= 1 && (o.attempts as number) <= 10))
  );
}

function isRedrive(r: unknown): boolean {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return false;
  const o = r as Record<string, unknown>;
  const names = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');
  return (
    typeof o.allow_changed === 'boolean' &&
    typeof o.retry_failed_items === 'boolean' &&
    names(o.assume_sent) &&
    names(o.assume_not_sent) &&
    typeof o.requested_at === 'number'
  );
}

function isPin(p: unknown): boolean {
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof (p as { path?: unknown }).path === 'string' &&
    typeof (p as { sha256?: unknown }).sha256 === 'string'
  );
}
