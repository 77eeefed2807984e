import { NeedleFinder } from './needle-finder.js';

/** Values shorter than this are not redacted: masking every "a" or "1" would make output unreadable. */
const MIN_SECRET_LENGTH = 3;

/** base64 pieces shorter than this are not masked: a 4-character piece of base64 matches ordinary text by chance. */
const MIN_BASE64_LENGTH = 6;

export const REDACTED = '***';

/**
 * Replaces secret values with *** in any text that leaves the program (logs, reports, errors, journals).
 * Also masks the forms a value takes on its way out, as CI systems do: JSON-escaped (also with \uXXXX for
 * every non-ASCII character), URL-encoded every way the engine or a target encodes (encodeURIComponent,
 * encodeURI, application/x-www-form-urlencoded with `+` for a space as URLSearchParams writes a query, the
 * WHATWG URL's path and query sets, every byte as %XX; either hex case), upper- and lower-cased, and base64
 * (standard and URL alphabets, padded or not), including the part of a longer base64 text that encodes the
 * secret (an `Authorization: Basic` header of `user:secret`).
 */
export class Redactor {
  private readonly needles = new Set<string>();
  private finder: NeedleFinder | null = null;
  private pattern: RegExp | null = null;

  constructor(values: Iterable<string | undefined> = []) {
    for (const v of values) this.add(v);
  }

  /** Adds a secret value (and its derived forms); tokens are added when they are obtained. */
  add(value: string | undefined): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
    const forms = [
      value,
      value.toUpperCase(),
      value.toLowerCase(),
      ...jsonForms(value),
      ...urlForms(value).flatMap((f) => [f, f.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())]),
      ...base64Forms(value).filter((f) => f.length >= MIN_BASE64_LENGTH),
    ];
    let changed = false;
    for (const f of forms) {
      if (f.length >= MIN_SECRET_LENGTH && !this.needles.has(f)) {
        this.needles.add(f);
        changed = true;
      }
    }
    if (changed) {
      this.finder = null;
      this.pattern = null;
    }
  }

  /** True when there is nothing to redact (lets hot paths skip the work). */
  get empty(): boolean {
    return this.needles.size === 0;
  }

  /** The text with every secret value replaced by ***. */
  redact(text: string): string {
    if (this.needles.size === 0) return text;
    // Most text holds no secret: one pass that mostly skips (needle-finder.ts) is far cheaper than the
    // alternation regex, which matters for the journal, where every answer (pages of 30 KB) passes here.
    this.finder ??= new NeedleFinder(this.needles);
    if (!this.finder.foundIn(text)) return text;
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

/** The value inside a JSON string: as JSON.stringify writes it, and with every non-ASCII character as \uXXXX. */
function jsonForms(value: string): string[] {
  const plain = JSON.stringify(value).slice(1, -1);
  const ascii = plain.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [plain, ascii, ascii.replace(/\\u[0-9a-f]{4}/g, (u) => u.toUpperCase().replace('\\U', '\\u'))];
}

/** The value URL-encoded every way a URL, a query string or a form body carries it (upper-case hex). */
function urlForms(value: string): string[] {
  const every = [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`);
  const forms = [encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), every.join('')];
  // encodeURI and the WHATWG URL parser throw on a lone surrogate, and the parser cuts a value at `?` or `#`
  // (a form that does not decode back to the whole value is not one: a piece of it could be empty).
  for (const form of [
    () => encodeURI(value),
    () => new URL(`http://h/${value}`).pathname.slice(1),
    () => new URL(`http://h/?${value}`).search.slice(1),
  ]) {
    try {
      const f = form();
      if (percentDecoded(f) === value) forms.push(f);
    } catch {
      // not a form this value can take
    }
  }
  return forms;
}

/** Text with its valid %XX runs decoded (a lone `%` of the value itself stays as it is). */
function percentDecoded(text: string): string {
  return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * base64 of the value (padded), and for each of the three alignments the value can have inside longer
 * encoded text, the characters that depend on its bytes alone: base64 turns 3 bytes into 4 characters, so
 * the bytes from the first 3-byte boundary to the last one encode the same way whatever comes around them.
 * Each in the standard and the URL-safe alphabet.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out = [bytes.toString('base64')];
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole > 0) out.push(bytes.subarray(skip, skip + whole).toString('base64'));
  }
  return [...out, ...out.map((b) => b.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
