import type { RunCursor } from '../../journal/index.js';

/**
 * The runs list's page cursor as a URL-safe text: the last row's start and run id (base64url JSON). Opaque
 * to the browser; anything that does not decode is a 400 (never a 500, never "everything"). The service's
 * lists seal theirs (service/core/cursor-seal.ts); the console reads a local journal it does not own a key for.
 */
export function encodeCursor(c: RunCursor): string {
  return Buffer.from(JSON.stringify([c.started_at, c.run_id]), 'utf8').toString('base64url');
}

/** The cursor a `before` parameter holds, or undefined when it is not one. */
export function decodeCursor(text: string): RunCursor | undefined {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(v) || v.length !== 2) return undefined;
  const [started_at, run_id] = v as unknown[];
  if (typeof started_at !== 'string' || typeof run_id !== 'string' || Number.isNaN(Date.parse(started_at)))
    return undefined;
  return { started_at, run_id };
}
