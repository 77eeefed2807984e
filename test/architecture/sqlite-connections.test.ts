import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './import-graph.js';

/**
 * better-sqlite3 is connected to in one file (src/sqlite/library.ts), which names its native addon by path: a
 * connection made anywhere else would fall back to the library's own addon lookup, which cannot find it from
 * the CLI bundle. Type-only imports are free; so is the writer thread, which loads the published library.
 */
describe('SQLite connections', () => {
  it('are made only in src/sqlite/library.ts', () => {
    const valueImport = /^import\s+(?!type\b)[^;]*?from\s+'better-sqlite3'/m;
    const constructed = /new\s+Database\s*\(/;
    const offenders = sourceFiles()
      .filter((file) => file !== 'sqlite/library.ts')
      .filter((file) => {
        const text = readFileSync(join(SRC, file), 'utf8');
        // The writer thread's source is plain JavaScript in a string (write-sink.ts): it constructs there.
        const code = file === 'journal/sqlite/write-sink.ts' ? text.replace(/`[^`]*`/g, '``') : text;
        return valueImport.test(code) || constructed.test(code);
      });
    expect(offenders).toEqual([]);
  });
});
