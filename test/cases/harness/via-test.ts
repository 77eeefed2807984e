import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { runCli } from '../../cli/cli-process.js';
import { testCaseFields, type CaseFile, type RoutedCase } from './case-file.js';

/** What `recipe test --reporter json` said about one case (docs/testing.md, Output). */
export interface TestRouteResult {
  status: string;
  failures: { what: string; message?: string; expected?: unknown; actual?: unknown }[];
  run?: unknown;
  writes?: unknown;
  logs?: string[];
}

/** Where a case file's generated test lands: its id without .yaml, as a folder. */
const folderOf = (file: CaseFile): string => file.id.replace(/\.yaml$/, '');

/** Writes the recipe (byte for byte) and its other files into dir. */
export function writeRecipe(dir: string, file: CaseFile, replace: (text: string) => string = (t) => t): void {
  for (const [path, text] of Object.entries({ 'recipe.yaml': file.recipe, ...file.files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), replace(text));
  }
}

/**
 * Runs every `test`-route case in one `recipe test` process: each case file becomes a folder with its recipe
 * and a generated `case.test.yaml` (the file's data settings and its cases, as `recipe test` reads them).
 * Returns the result per case, keyed by `<case file id>#<case name>`, and the process's output for diagnosis.
 */
export async function runTestRoute(
  cases: readonly RoutedCase[],
): Promise<{ results: Map<string, TestRouteResult>; code: number | null; output: string; ms: number }> {
  const root = mkdtempSync(join(tmpdir(), 'recipe-cases-'));
  const byFile = new Map<CaseFile, RoutedCase[]>();
  for (const c of cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  for (const [file, list] of byFile) {
    const dir = join(root, folderOf(file));
    writeRecipe(dir, file);
    const test = {
      recipe: 'recipe.yaml',
      ...(file.fixtures ? { fixtures: file.fixtures } : { seed: file.seed }),
      ...(file.now ? { now: file.now } : {}),
      ...(file.inputs ? { inputs: file.inputs } : {}),
      ...(file.secrets ? { secrets: file.secrets } : {}),
      cases: list.map((c) => testCaseFields(c.spec)),
    };
    writeFileSync(join(dir, 'case.test.yaml'), stringify(test));
  }
  const started = Date.now();
  const out = join(root, 'report.json');
  const { code, stdout, stderr } = await runCli(['test', '.', '--reporter', 'json', '-o', out], {
    cwd: root,
    timeoutMs: 120_000,
  });
  const ms = Date.now() - started;
  const results = new Map<string, TestRouteResult>();
  let report: { cases?: (TestRouteResult & { file: string; name: string })[]; diagnostics?: unknown[] } = {};
  try {
    report = JSON.parse(readFileSync(out, 'utf8')) as typeof report;
  } catch {
    // no report: the output below says why
  }
  for (const r of report.cases ?? []) results.set(`${r.file.replace(/\/case\.test\.yaml$/, '')}#${r.name}`, r);
  const diagnostics = report.diagnostics?.length ? `\ndiagnostics: ${JSON.stringify(report.diagnostics)}` : '';
  return { results, code, output: stdout + stderr + diagnostics, ms };
}

/** The key of a case in runTestRoute's results. */
export const testRouteKey = (c: RoutedCase): string => `${folderOf(c.file)}#${c.spec.name}`;
