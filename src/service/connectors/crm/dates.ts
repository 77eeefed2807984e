/**
 * Date handling of the CRM: every stored timestamp is ISO 8601 UTC with milliseconds ("…T…:…:….sssZ"),
 * so stored dates sort and compare as text. Callers may send ISO 8601 (date or date-time, any offset)
 * or epoch milliseconds, as upstream accepts both.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const EPOCH_MS = /^-?\d{1,15}$/;

/** Normalises a date input to ISO 8601 UTC with milliseconds, or null when it is not a valid date. */
export function normalizeDate(input: string | number): string | null {
  const text = String(input).trim();
  let ms: number;
  if (EPOCH_MS.test(text)) {
    ms = Number(text);
  } else if (ISO_DATE.test(text) || ISO_DATE_TIME.test(text)) {
    ms = Date.parse(text);
    // Date.parse rolls 2024-02-31 over to March; a round trip of the date part catches it.
    if (!Number.isNaN(ms) && !sameCalendarDate(text, ms)) return null;
  } else {
    return null;
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return new Date(ms).toISOString();
}

function sameCalendarDate(text: string, ms: number): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d && !Number.isNaN(ms);
}

/** The service clock as the CRM writes it. */
export function isoNow(now: Date): string {
  return now.toISOString();
}
