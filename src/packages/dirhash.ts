import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Go's `h1:` directory hash (golang.org/x/mod/sumdb/dirhash Hash1): sha256 over the sorted lines
 * "<hex sha256 of the file>  <path>\n", base64. Paths use forward slashes, relative to the package root.
 * Only regular files count: a symbolic link is never part of a package (it could point out of it).
 */
export function hashDir(root: string): string {
  return hashFiles(fileHashes(root));
}

/** path → hex sha256 of every regular file under root (sorted by path). */
export function fileHashes(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of listFiles(root).sort()) {
    out.set(
      rel,
      createHash('sha256')
        .update(readFileSync(path.join(root, rel)))
        .digest('hex'),
    );
  }
  return out;
}

export function hashFiles(files: ReadonlyMap<string, string>): string {
  const h = createHash('sha256');
  for (const rel of [...files.keys()].sort()) h.update(`${files.get(rel)}  ${rel}\n`);
  return `h1:${h.digest('base64')}`;
}

/** Regular files under root, relative, with forward slashes. */
export function listFiles(root: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(root, rel));
    else if (entry.isFile() && lstatSync(path.join(root, rel)).isFile()) out.push(rel);
  }
  return out;
}
