/**
 * `Content-Disposition: attachment` for a file name (RFC 6266). Node refuses header values outside
 * Latin-1 (and any control character), so the name goes twice: `filename="…"` with every character that is
 * not printable ASCII (and `"`, `\`, `%`) replaced by `_`, for old clients; and, when that changed anything,
 * `filename*=UTF-8''…` (RFC 8187) with the exact name percent-encoded, which current clients prefer.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  if (fallback === name) return `attachment; filename="${name}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

/** RFC 8187 value-chars: attr-char as is, every other UTF-8 byte as %XX (a lone surrogate becomes U+FFFD's bytes). */
function encodeRfc8187(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9!#$&+.^_`|~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
