import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** A recipe test file's name. */
export const TEST_FILE = /\.test\.ya?ml$/i;

/**
 * The test files named by `paths`: files as given, folders walked recursively for *.test.yaml / *.test.yml
 * (dot-folders and node_modules skipped), sorted. A path that does not exist is kept, so loading reports it.
 */
export async function findTestFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    let info;
    try {
      info = await stat(p);
    } catch {
      out.push(p);
      continue;
    }
    if (info.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return [...new Set(out)];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile() && TEST_FILE.test(entry.name)) out.push(full);
  }
  return out;
}
