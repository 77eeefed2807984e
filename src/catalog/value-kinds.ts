/**
 * The value rules a connector applies to a property beyond its JSON type, as its params schemas name them
 * (`x-value`: datetime, number, integer, email; the CRM's validateProperties). Checked here with the
 * service's own words, so validate and --dry-run refuse what the service would refuse with a 400.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const EPOCH_MS = /^-?\d{1,15}$/;

/** Why `value` breaks the `x-value` rule `kind` (the service's message after the property name), or null. */
export function valueKindRule(value: unknown, kind: unknown): string | null {
  // The service stores numbers and booleans as text, and clears a property with "" or null.
  if (value === null || value === '' || typeof kind !== 'string') return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
  const text = String(value);
  switch (kind) {
    case 'datetime':
      return isDate(text) ? null : `${JSON.stringify(text)} is not a valid ISO 8601 date (or epoch milliseconds)`;
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text.trim()) ? null : `${JSON.stringify(text)} is not a number`;
    case 'integer':
      return /^-?\d+$/.test(text.trim()) ? null : `${JSON.stringify(text)} is not an integer`;
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(text) ? null : `${JSON.stringify(text)} is not a valid email address`;
    default:
      return null;
  }
}

/** ISO 8601 (a date, or a date-time with an offset) of a real calendar day, or epoch milliseconds. */
function isDate(input: string): boolean {
  const text = input.trim();
  let ms: number;
  if (EPOCH_MS.test(text)) ms = Number(text);
  else if (ISO_DATE.test(text) || ISO_DATE_TIME.test(text)) {
    ms = Date.parse(text);
    const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
    const day = new Date(Date.UTC(y, m - 1, d));
    // Date.parse rolls 2024-02-31 over to March: the date part must survive a round trip.
    if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return false;
  } else return false;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;
}
