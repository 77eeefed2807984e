import { existsSync } from 'node:fs';
import { RecipeError } from '../errors/index.js';
import { fileHashes, storePath, type Footprint, type LockFile, type LockedPackage } from '../packages/index.js';
import { install, type InstallOptions, type InstallResult } from './install.js';
import path from 'node:path';
import { LOCK_NAME, readLock } from '../packages/index.js';

export interface UpdateOptions extends Omit<InstallOptions, 'refresh' | 'frozen'> {
  /** Lock keys or parts of them (a URL, a package name); none: every package. */
  readonly names: readonly string[];
  /** The ref or version to resolve instead of the one written in the call. */
  readonly to?: string;
}

/**
 * `recipe deps update`: resolves the named packages again (every caller is compiled against the new version
 * when footprints are computed), writes the lock, and describes the change as Markdown for a pull request.
 */
export async function update(opts: UpdateOptions): Promise<{ result: InstallResult; markdown: string }> {
  const lockFile = path.join(opts.dir, LOCK_NAME);
  const current = existsSync(lockFile) ? readLock(lockFile) : { version: 1 as const, packages: {} };
  const keys = Object.keys(current.packages).filter(
    (k) => opts.names.length === 0 || opts.names.some((n) => k === n || k.includes(n)),
  );
  for (const n of opts.names)
    if (!Object.keys(current.packages).some((k) => k === n || k.includes(n)))
      throw new RecipeError('P016', { name: n });
  const refresh = new Map<string, string | undefined>(keys.map((k) => [k, opts.to]));
  const result = await install({ ...opts, refresh });
  return { result, markdown: describeChange(result.before, result.lock, opts.store) };
}

/** The lock's change as Markdown: old → new, the files that changed, and what the package now does differently. */
export function describeChange(before: LockFile | undefined, after: LockFile, store: string): string {
  const lines: string[] = ['## recipe.lock changes', ''];
  const keys = [...new Set([...Object.keys(before?.packages ?? {}), ...Object.keys(after.packages)])].sort();
  let any = false;
  for (const key of keys) {
    const a = before?.packages[key];
    const b = after.packages[key];
    if (a && b && a.hash === b.hash && JSON.stringify(a.footprint) === JSON.stringify(b.footprint)) continue;
    any = true;
    lines.push(`### \`${key}\``, '');
    if (!a) lines.push(`added at ${pinOf(b!)}`);
    else if (!b) lines.push(`removed (was ${pinOf(a)})`);
    else {
      lines.push(`${pinOf(a)} → ${pinOf(b)}`, '');
      const files = changedFiles(store, a, b);
      if (files.length > 0) lines.push('Changed files:', '', ...files.map((f) => `- ${f}`), '');
      const fp = footprintDiff(a.footprint, b.footprint);
      lines.push(...(fp.length > 0 ? ['Footprint:', '', ...fp] : ['Footprint: unchanged']));
    }
    lines.push('');
  }
  if (!any) lines.push('No package changed.', '');
  return lines.join('\n');
}

function pinOf(p: LockedPackage): string {
  return p.source === 'git' ? `\`${p.commit?.slice(0, 12)}\` (${p.ref_name ?? p.ref})` : `\`${p.version}\``;
}

function changedFiles(store: string, a: LockedPackage, b: LockedPackage): string[] {
  const da = storePath(store, a.hash);
  const db = storePath(store, b.hash);
  if (!existsSync(da) || !existsSync(db)) return [];
  const fa = fileHashes(da);
  const fb = fileHashes(db);
  const out: string[] = [];
  for (const [f, h] of fb)
    if (!fa.has(f)) out.push(`added ${f}`);
    else if (fa.get(f) !== h) out.push(`changed ${f}`);
  for (const f of fa.keys()) if (!fb.has(f)) out.push(`removed ${f}`);
  return out.sort((x, y) => x.slice(x.indexOf(' ')).localeCompare(y.slice(y.indexOf(' '))));
}

/** "- now writes notes.create", "- no longer reaches hooks.slack.com", ... */
export function footprintDiff(a: Footprint, b: Footprint): string[] {
  const out: string[] = [];
  const verbs: Record<keyof Footprint, [string, string]> = {
    writes: ['now writes', 'no longer writes'],
    reads: ['now reads', 'no longer reads'],
    http: ['now reaches', 'no longer reaches'],
    secrets: ['now declares secret', 'no longer declares secret'],
  };
  for (const k of ['writes', 'reads', 'http', 'secrets'] as const) {
    for (const v of b[k]) if (!a[k].includes(v)) out.push(`- **${verbs[k][0]} ${v}**`);
    for (const v of a[k]) if (!b[k].includes(v)) out.push(`- ${verbs[k][1]} ${v}`);
  }
  return out;
}
