import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Extracts the regular files of a tar (or .tgz) archive under `dest`, as `git archive` and `npm pack` write
 * them (ustar, pax and GNU long names). Links, devices and any entry whose path would leave `dest` are
 * skipped: a package holds plain files only. `strip` drops that many leading path segments (npm's `package/`).
 */
export function extractTar(data: Buffer, dest: string, strip = 0): number {
  const buf = data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data;
  let offset = 0;
  let longName: string | undefined;
  let count = 0;
  while (offset + 512 <= buf.length) {
    const header = buf.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(cString(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 0x30);
    const prefix = cString(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${cString(header, 0, 100)}` : cString(header, 0, 100));
    const body = buf.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
      continue;
    }
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
      continue;
    }
    longName = undefined;
    if (type !== '0' && type !== '\0' && type !== '7') continue;
    const parts = name
      .split('/')
      .filter((p) => p !== '' && p !== '.')
      .slice(strip);
    if (parts.length === 0 || parts.some((p) => p === '..')) continue;
    const target = path.join(dest, ...parts);
    if (!target.startsWith(dest + path.sep)) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, body);
    count++;
  }
  return count;
}

function cString(b: Buffer, start: number, len: number): string {
  const s = b.subarray(start, start + len);
  const end = s.indexOf(0);
  return s.subarray(0, end < 0 ? len : end).toString('utf8');
}
