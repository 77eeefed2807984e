/**
 * $now, $millis, $fromMillis, $toMillis. The plain ISO 8601 forms are done here; with a picture or a
 * time zone they call jsonata's own implementation (XPath picture strings).
 */
import { ExprError } from '../runtime/errors.js';
import { evaluationTimestamp } from '../runtime/guard.js';
import { callJsonataNative } from './jsonata-natives.js';

const ISO8601 = /^\d{4}(-[01]\d)?(-[0-3]\d)?(T[0-2]\d:[0-5]\d:[0-5]\d)?(\.\d+)?([+-][0-2]\d:?[0-5]\d|Z)?$/;

/** toISOString gives jsonata's default picture for years 0000 to 9999 (0000-01-01T00:00:00.000Z onwards). */
const ISO_SAFE_MIN = -62167219200000;
const ISO_SAFE_MAX = 253402300799999;

export function fromMillis(millis: number | undefined, picture?: string, timezone?: string): string | undefined {
  if (millis === undefined) return undefined;
  if (picture === undefined && timezone === undefined && millis >= ISO_SAFE_MIN && millis <= ISO_SAFE_MAX)
    return new Date(millis).toISOString();
  return callJsonataNative('fromMillis', [millis, picture, timezone]) as string | undefined;
}

export function toMillis(timestamp: string | undefined, picture?: string): number | undefined {
  if (timestamp === undefined) return undefined;
  if (picture !== undefined) return callJsonataNative('toMillis', [timestamp, picture]) as number | undefined;
  if (!ISO8601.test(timestamp)) throw new ExprError('D3110', { value: timestamp });
  return Date.parse(timestamp);
}

export function now(picture?: string, timezone?: string): string | undefined {
  return fromMillis(evaluationTimestamp(), picture, timezone);
}

export function millis(): number {
  return evaluationTimestamp();
}
