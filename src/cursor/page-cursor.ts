/**
 * cursor/: a keyset page cursor as opaque, URL-safe text: base64url of the JSON of the last row's sort key. The
 * console's runs list and the service's lists (workspaces, the context store's search) page with it, each checking
 * the shape of what it decodes. A leaf both halves may import: it imports nothing of src/.
 */

/** The cursor text of a position (any JSON value). */
export function encodePageCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** The position a cursor text holds, or undefined when it is not base64url JSON. */
export function decodePageCursor(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
