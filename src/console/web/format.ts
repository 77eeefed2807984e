/** How the pages write durations, times and statuses. */

/** 850 ms, 1.2 s, 3 min 5 s, 2 h 4 min. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** A start time as "2026-11-25 12:05:30" in the browser's time zone (the ISO text is the title). */
export function formatTime(iso: string | null): string {
  if (iso === null) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The badge class of a run, attempt, step or request status. */
export function statusClass(status: string): string {
  switch (status) {
    case 'succeeded':
    case 'ok':
    case 'answered':
      return 'ok';
    case 'failed':
      return 'failed';
    case 'running':
    case 'intent':
      return 'running';
    case 'interrupted':
    case 'cancelled':
    case 'continued':
    case 'dry_run':
      return 'warn';
    default:
      return 'muted';
  }
}

/** JSON as the pages show values: indented, `null` for nothing. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2);
}

/** "1 request", "3 requests". */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
}
