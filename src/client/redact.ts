/** Values shorter than this are not redacted: masking every "a" or "1" would make output unreadable. */
const MIN_SECRET_LENGTH = 3;

export const REDACTED = '***';

/**
 * Replaces secret values with *** in any text that leaves the program (logs, reports, errors).
 * Also masks the forms a value takes on its way out: JSON-escaped and URL-encoded.
 */
export class Redactor {
  private readonly needles = new Set<string>();
  private pattern: RegExp | null = null;

  constructor(values: Iterable<string | undefined> = []) {
    for (const v of values) this.add(v);
  }

  /** Adds a secret value (and its escaped forms); tokens are added when they are obtained. */
  add(value: string | undefined): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
    const forms = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)];
    let changed = false;
    for (const f of forms) {
      if (!this.needles.has(f)) {
        this.needles.add(f);
        changed = true;
      }
    }
    if (changed) this.pattern = null;
  }

  /** True when there is nothing to redact (lets hot paths skip the work). */
  get empty(): boolean {
    return this.needles.size === 0;
  }

  /** The text with every secret value replaced by ***. */
  redact(text: string): string {
    if (this.needles.size === 0) return text;
    // Most text holds no secret: a search per needle (memchr-fast) is several times cheaper than the
    // alternation regex, which matters for the journal, where every answer (pages of 50 KB) passes here.
    let found = false;
    for (const needle of this.needles) {
      if (text.includes(needle)) {
        found = true;
        break;
      }
    }
    if (!found) return text;
    if (!this.pattern) {
      // Longest first, so a secret that contains another is masked whole.
      const sorted = [...this.needles].sort((a, b) => b.length - a.length);
      this.pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    }
    return text.replace(this.pattern, REDACTED);
  }

  /** A deep copy of a JSON-like value with secrets masked inside every string (keys included). */
  redactValue<T>(value: T): T {
    if (this.needles.size === 0) return value;
    return this.walk(value, new WeakSet()) as T;
  }

  private walk(value: unknown, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    // Only a value that contains itself is circular; the same object reached twice (shared) is copied twice.
    if (seen.has(value)) return '[circular]';
    if (Buffer.isBuffer(value)) return value;
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.walk(v, seen));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.redact(k)] = this.walk(v, seen);
      return out;
    } finally {
      seen.delete(value);
    }
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
