import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { resolveImport, SRC, sourceFiles } from './import-graph.js';

/**
 * A run on the SQLite journal loads src/journal/open.ts (cli/run/run-journal.ts imports it by name) and what it
 * imports. The Redis and PostgreSQL backends are the fleet's: loading them cost every journaled run ~6 ms
 * (bench/README.md), so they are reached only through the folder's index or a dynamic import().
 */
describe('loading the SQLite journal', () => {
  it('does not load the Redis or PostgreSQL backends', () => {
    const loaded = staticClosure('journal/open.ts');
    expect(loaded).toContain('journal/sqlite/store.ts');
    const fleet = loaded.filter((f) => /^journal\/(redis|postgres)\//.test(f) && f !== 'journal/postgres/client.ts');
    expect(fleet).toEqual([]);
  });
});

/** The files `file` loads when it is loaded: value imports and re-exports, followed; type-only and import() not. */
function staticClosure(file: string): string[] {
  const known = new Set(sourceFiles());
  const seen = new Set<string>([file]);
  const queue = [file];
  for (let next = queue.pop(); next !== undefined; next = queue.pop())
    for (const dep of valueImports(next, known))
      if (!seen.has(dep)) {
        seen.add(dep);
        queue.push(dep);
      }
  return [...seen].sort();
}

function valueImports(file: string, known: ReadonlySet<string>): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const node of source.statements) {
    const spec =
      ts.isImportDeclaration(node) && !isTypeOnlyImport(node)
        ? node.moduleSpecifier
        : ts.isExportDeclaration(node) && !node.isTypeOnly
          ? node.moduleSpecifier
          : undefined;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
    out.push(resolveImport(file, spec.text, known));
  }
  return out;
}

/** `import type {…}`, or an import whose every name is `type`: erased by the compiler. */
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const names = clause.namedBindings;
  return (
    clause.name === undefined &&
    names !== undefined &&
    ts.isNamedImports(names) &&
    names.elements.every((e) => e.isTypeOnly)
  );
}
