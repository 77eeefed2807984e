import { readFileSync, writeFileSync } from 'node:fs';
import { spliceMembers, type MemberEdit } from '../source/index.js';
import type { CaseResult } from './results.js';
import type { TestFile } from './test-file.js';

/**
 * --update: rewrites the `expect` of every snapshot case that ran (`snapshot: true`) from what its run did:
 * status, error code (when it failed), outputs and writes. The rest of the file keeps its bytes. Returns the
 * files written.
 */
export function applySnapshotUpdates(files: readonly TestFile[], results: readonly CaseResult[]): string[] {
  const written: string[] = [];
  for (const file of files) {
    const edits: MemberEdit[] = [];
    for (const c of file.cases) {
      const r = results.find((x) => x.file === file.display && x.name === c.name && x.status === 'updated');
      if (!r?.run) continue;
      const failed = r.run.status !== 'ok';
      const expect: Record<string, unknown> = {
        status: failed ? 'failed' : 'succeeded',
        error: failed ? r.run.error?.code : undefined,
        outputs: literal(r.run.outputs),
        writes: literal(r.writes ?? []),
      };
      const written = c.expectKeys;
      if (written === undefined) {
        for (const k of Object.keys(expect)) if (expect[k] === undefined) delete expect[k];
        edits.push({ parent: ['cases', c.index], key: 'expect', value: expect });
      } else
        for (const [key, value] of Object.entries(expect))
          if (value !== undefined || written.includes(key))
            edits.push({ parent: ['cases', c.index, 'expect'], key, value });
    }
    if (edits.length === 0) continue;
    const text = readFileSync(file.path, 'utf8');
    writeFileSync(file.path, spliceMembers(text, edits));
    written.push(file.display);
  }
  return written;
}

/** Actual values written back as expectations: `${` in strings is escaped so it is not read as a predicate. */
function literal(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('${', '$${');
  if (Array.isArray(value)) return value.map(literal);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literal(v)]));
  return value;
}
