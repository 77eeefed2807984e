/**
 * Durations as people write them in recipes and flags: `500ms`, `30s`, `10m`, `2h`, `30d`, or `0`. One number
 * and one unit, nothing else (no `1h30m`): the schema and every flag accept the same text.
 */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The pattern schemas/recipe.schema.json states for a duration (a test holds them equal). */
export const DURATION_PATTERN = '^(0|[0-9]+(ms|s|m|h|d))$';

/** A duration in milliseconds, or undefined when the text is not one. */
export function parseDurationMs(text: string): number | undefined {
  const m = /^([0-9]+)(ms|s|m|h|d)$/.exec(text.trim());
  if (text.trim() === '0') return 0;
  if (!m) return undefined;
  const ms = Number(m[1]) * (UNIT_MS[m[2] as string] as number);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** A duration in the largest unit that states it exactly (600000 → "10m"), for messages and help. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] as number;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return ms === 0 ? '0' : `${ms}ms`;
}
