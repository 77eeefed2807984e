/**
 * Golden diagnostics. Each test/golden/invalid/<case>.yaml has <case>.expected: the exact lines
 * `recipe validate` prints for it (FILE:LINE:COL: CODE message, file relative to the folder), errors and
 * warnings in file order. test/golden/warnings/ holds recipes that are valid but draw warnings (W codes).
 * The prose is pinned on purpose here (it is the product's user-facing output); review the diff, then
 * regenerate with UPDATE_GOLDEN=1 npx vitest run test/golden. Every test/golden/valid/*.yaml must be valid,
 * and every shipped recipe under recipes/ valid without a warning. Connector calls are checked against the
 * embedded connector catalog, as `recipe validate` does.
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { embeddedCatalog } from '../../src/catalog/index.js';
import { collectRecipeFiles, loadRecipe, validateFiles } from '../../src/compile/index.js';
import { formatDiagnostic, sortDiagnostics } from '../../src/source/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const invalidDir = path.join(here, 'invalid');
const validDir = path.join(here, 'valid');
const warningsDir = path.join(here, 'warnings');
const catalog = embeddedCatalog();
const recipesDir = path.join(here, '../../recipes');

const cases = readdirSync(invalidDir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('golden invalid recipes', () => {
  it('has at least 40 cases, each with an .expected file', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    if (process.env.UPDATE_GOLDEN) return;
    for (const c of cases) expect(existsSync(path.join(invalidDir, c.replace(/\.yaml$/, '.expected'))), c).toBe(true);
  });

  for (const c of cases) {
    it(c, async () => {
      const { plan, diagnostics, warnings } = await loadRecipe(path.join(invalidDir, c), { displayName: c, catalog });
      expect(plan).toBeUndefined();
      expectGolden(invalidDir, c, [...diagnostics, ...warnings]);
    });
  }
});

describe('golden warnings (valid recipes with W diagnostics)', () => {
  const files = readdirSync(warningsDir).filter((f) => f.endsWith('.yaml'));
  for (const c of files) {
    it(c, async () => {
      const { plan, diagnostics, warnings } = await loadRecipe(path.join(warningsDir, c), { displayName: c, catalog });
      expect(diagnostics.map((d) => formatDiagnostic(d))).toEqual([]);
      expect(plan).toBeDefined();
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.every((w) => w.severity === 'warning' && w.code.startsWith('W'))).toBe(true);
      expectGolden(warningsDir, c, warnings);
    });
  }
});

/** Compares a case's diagnostics, as `recipe validate` prints them, with its .expected file. */
function expectGolden(dir: string, c: string, list: Parameters<typeof sortDiagnostics>[0]): void {
  const actual = sortDiagnostics(list).map((d) => formatDiagnostic(d)).join('\n') + '\n';
  const expectedFile = path.join(dir, c.replace(/\.yaml$/, '.expected'));
  if (process.env.UPDATE_GOLDEN) writeFileSync(expectedFile, actual);
  expect(actual).toBe(readFileSync(expectedFile, 'utf8'));
}

describe('golden valid recipes', () => {
  const valid = readdirSync(validDir).filter((f) => f.endsWith('.yaml'));
  it('has valid cases', () => expect(valid.length).toBeGreaterThan(0));
  for (const v of valid) {
    it(v, async () => {
      const { plan, diagnostics } = await loadRecipe(path.join(validDir, v), { displayName: v, catalog });
      expect(diagnostics.map((d) => formatDiagnostic(d))).toEqual([]);
      expect(plan).toBeDefined();
      expect(Object.isFrozen(plan)).toBe(true);
    });
  }
});

describe('shipped recipes', () => {
  it('every recipe under recipes/ validates, with no warning and the connector checks on (the folder is walked recursively)', async () => {
    const files = existsSync(recipesDir) ? await collectRecipeFiles([recipesDir]) : [];
    const walked = existsSync(recipesDir) ? listYaml(recipesDir) : [];
    expect(files.sort()).toEqual(walked.sort());
    const results = await validateFiles(files, { catalog, strict: true });
    const problems = results.flatMap((r) => r.diagnostics.map((d) => formatDiagnostic(d)));
    expect(problems).toEqual([]);
  });
});

/** An independent walk, to check collectRecipeFiles finds every *.yaml / *.yml but test and fixture files. */
function listYaml(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name) && !/\.(test|fixtures)\.ya?ml$/i.test(e.name))
    .filter((e) => !path.relative(dir, e.parentPath).split(path.sep).some((s) => s.startsWith('.') || s === 'node_modules' || s === 'fixtures'))
    .map((e) => path.join(e.parentPath, e.name));
}
