import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './import-graph.js';

// House rule 13: one way to start a run. Entry points (cli/, fleet/, test-runner/, and what comes) check a
// recipe with checkRecipe and run it with startRun (run/start-run.ts), which takes only a checked recipe; so
// none of them may call the two functions underneath: loadRecipe (it skips the catalog and --strict) and
// runPlan (it runs any plan).

/** Where each of the two may be called, and why. */
const ALLOWED: Record<string, readonly string[]> = {
  // compile/ defines loadRecipe and validates with it; run/start-run.ts checks with it; the console draws a
  // recipe's graph (nothing runs there).
  loadRecipe: ['compile/', 'run/start-run.ts', 'console/recipes.ts'],
  // run-plan.ts defines it; start-run.ts is the one caller.
  runPlan: ['run/run-plan.ts', 'run/start-run.ts'],
};

/** The names a file calls: `name(...)` or `x.name(...)`. */
function calledNames(file: string): Set<string> {
  const text = readFileSync(join(SRC, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee)) names.add(callee.text);
      else if (ts.isPropertyAccessExpression(callee)) names.add(callee.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

describe('one way to start a run', () => {
  const calls = new Map(sourceFiles().map((f) => [f, calledNames(f)]));
  const callersOf = (name: string): string[] => [...calls].filter(([, names]) => names.has(name)).map(([f]) => f);

  for (const [name, allowed] of Object.entries(ALLOWED)) {
    it(`calls ${name} only where it is allowed`, () => {
      const callers = callersOf(name);
      expect(callers.length).toBeGreaterThan(0);
      expect(callers.filter((f) => !allowed.some((a) => f === a || (a.endsWith('/') && f.startsWith(a))))).toEqual([]);
    });
  }

  it('every entry point starts runs through startRun', () => {
    const starters = callersOf('startRun');
    for (const entry of ['cli/run/run.ts', 'fleet/run-job.ts', 'test-runner/run-case.ts', 'run/start-run.ts'])
      expect(starters).toContain(entry);
  });
});
