import { createHash } from 'node:crypto';
import { ServiceError } from '../../core/errors.js';

/** Largest file the connector stores (decoded bytes). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const contentTypesByExtension: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  pdf: 'application/pdf',
};

/** The content type for a file name when the caller gives none (text content defaults to text/plain). */
export function contentTypeFor(name: string, fallback = 'application/octet-stream'): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  // Own keys only: a name ending in .constructor must not find Object.prototype's.
  return (ext && Object.hasOwn(contentTypesByExtension, ext) && contentTypesByExtension[ext]) || fallback;
}

/** What a text file defaults to when its name's extension says nothing. */
export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/**
 * Decodes strict base64 (standard alphabet, padded). Node's decoder silently skips bad characters, so the
 * text is checked first: a typo must be a 400, not a corrupted file.
 */
export function decodeContent(text: string, field: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw new ServiceError(
      'H400_INVALID_CONTENT',
      { message: 'content must be standard base64 (A-Z, a-z, 0-9, +, /, padded with =)' },
      { field },
    );
  }
  return checkedSize(Buffer.from(compact, 'base64'), field, 'bytes');
}

/**
 * Encodes text content as UTF-8. A lone surrogate has no UTF-8 form (it would be stored as U+FFFD, changing
 * the text silently), so it is refused; so are empty and oversized content, as for base64.
 */
export function encodeText(text: string, field: string): Buffer {
  // With the u flag a surrogate pair is one code point; only a lone surrogate is in the Cs category.
  if (/\p{Cs}/u.test(text)) {
    throw new ServiceError(
      'H400_INVALID_CONTENT',
      { message: 'content is not well-formed Unicode text (it holds a lone surrogate); send such bytes as base64' },
      { field },
    );
  }
  return checkedSize(Buffer.from(text, 'utf8'), field, 'bytes as UTF-8');
}

/** A file holds 1 to MAX_FILE_BYTES bytes, whichever way its content was sent. */
function checkedSize(bytes: Buffer, field: string, unit: string): Buffer {
  if (bytes.length === 0) {
    throw new ServiceError(
      'H400_INVALID_CONTENT',
      { message: 'content must not be empty: a file holds at least 1 byte' },
      { field },
    );
  }
  if (bytes.length > MAX_FILE_BYTES) {
    throw new ServiceError(
      'H400_INVALID_CONTENT',
      { message: `content is ${bytes.length} ${unit}; the maximum is ${MAX_FILE_BYTES}` },
      { field },
    );
  }
  return bytes;
}

/** Hex SHA-256 of some bytes (stored with every file, answered in its metadata). */
export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
