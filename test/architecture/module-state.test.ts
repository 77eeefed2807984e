import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './import-graph.js';

// House rule: no module-level mutable state (docs/architecture.md). State lives in the objects the
// composition root makes (the app, the store, the context store), so two services in one process never
// share it and a test can build one from scratch.

/**
 * Known module-level state in the engine and the test runner, left to the lanes that own those files. Each
 * is a lazy load or a memo (it changes no behaviour), never state a caller could observe; expr/'s are
 * deliberate (the expr lane asked for them) and say why below.
 */
const ALLOWED = new Set([
  'schema/ajv.ts: let schemaText', // the recipe schema's text, read once
  'schema/ajv.ts: let validator', // the precompiled recipe validator, loaded once
  'schema/index.ts: let stepFields', // step field names derived from the schema, once
  'frame/eval.ts: bareNames', // memo: is a compiled expression a bare $name (keyed by the expression)
  'frame/eval.ts: readsByValue', // memo: the binding names a plan value's expressions read (keyed by the value)
  'catalog/embedded.ts: let embedded', // the embedded service's connector catalog, read once
  'schema/test-schema.ts: let validator', // the recipe test file validator, compiled once
  'run/project-secrets.ts: byFile', // memo: a recipe file's secret names, by path (checked against size and mtime)
  'run/project-secrets.ts: byDir', // memo: a folder's entries the walk looks into, by path (checked against its mtime)
  'run/project-secrets.ts: loadedCaches', // memo: the project caches (.recipe/secret-names.json) already read
  'run/project-secrets.ts: applied', // memo: what each live redactor was given, so a worker's job walks its folder once
  'test-runner/worker.ts: files', // a worker thread's loaded test files (a worker is its own isolate)
  // A compiled evaluation runs synchronously from first node to result, so nothing else can run meanwhile:
  // slots per thread hold the evaluation under way (whether one runs, its bound, its $now() timestamp) instead
  // of a context threaded through every generated call, and are empty again when it returns.
  'expr/runtime/guard.ts: let running',
  'expr/runtime/guard.ts: let runningLimits',
  'expr/runtime/guard.ts: let runningTimestamp',
  'expr/runtime/guard.ts: let turnsLeft', // turns until the next look at the clock (the bound's sampling)
  // Marks on sequences: the number of the evaluation under way, so a sequence made by another evaluation
  // is a plain array, and the sequences this one nested (settled when it ends).
  'expr/runtime/sequence.ts: let evaluation',
  'expr/runtime/sequence.ts: let nestedSequences',
  'expr/jsonata-engine.ts: let loaded', // jsonata itself, loaded on first need (start-up without it)
  'expr/jsonata-engine.ts: prepared', // memo: jsonata expressions given the extensions and the guard once
  'expr/functions/registry.ts: values', // memo: the function value of each built-in, made on first use
  'expr/functions/jsonata-natives.ts: natives', // jsonata's own built-ins, filled once when jsonata loads
  // Marks of function values jsonata holds (closures, host functions), keyed weakly by the function: the
  // tail-call marks compiled code needs on functions it did not make.
  'expr/runtime/functions.ts: foreignSites',
]);

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
const MUTATORS = new Set(['set', 'add', 'delete', 'clear']);

/** Module-level `let`/`var` bindings, and module-level Map/Set/WeakMap/WeakSet that the file mutates. */
function moduleState(file: string, text = readFileSync(join(SRC, file), 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const collections = new Set<string>();
  for (const stmt of source.statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    const mutable = !(stmt.declarationList.flags & (ts.NodeFlags.Const | ts.NodeFlags.Using));
    for (const decl of stmt.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name)) continue;
      if (mutable) found.push(`${file}: let ${decl.name.text}`);
      const init = decl.initializer;
      if (init && ts.isNewExpression(init) && ts.isIdentifier(init.expression) && COLLECTIONS.has(init.expression.text))
        collections.add(decl.name.text);
    }
  }
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      collections.has(node.expression.expression.text) &&
      MUTATORS.has(node.expression.name.text)
    ) {
      const name = node.expression.expression.text;
      if (!found.includes(`${file}: ${name}`)) found.push(`${file}: ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('module-level state in src/', () => {
  it('finds a module-level let and a mutated module-level Map, not constants (the check itself works)', () => {
    const sample = [
      'export let hook: (() => void) | null = null;',
      'const cache = new Map<string, number>();',
      'const KINDS = new Set(["a", "b"]);',
      'export function remember(k: string) { cache.set(k, 1); return KINDS.has(k); }',
      'export function f() { let local = 1; const m = new Map(); m.set(1, local++); }',
    ].join('\n');
    expect(moduleState('sample.ts', sample)).toEqual(['sample.ts: let hook', 'sample.ts: cache']);
  });

  it('has none besides the listed engine memos', () => {
    // The console's browser code is one page in one tab: its module state is the page's own.
    const found = sourceFiles()
      .filter((f) => !f.startsWith('console/web/'))
      .flatMap((f) => moduleState(f));
    expect(found.filter((f) => !ALLOWED.has(f))).toEqual([]);
  });

  it('has none at all in the service', () => {
    expect(
      sourceFiles()
        .filter((f) => f.startsWith('service/'))
        .flatMap((f) => moduleState(f)),
    ).toEqual([]);
  });
});
