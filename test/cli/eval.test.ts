/** `recipe eval` through the real CLI (node bin/recipe.js, built into dist/ by `npm run build`), and the library's evaluateExpression. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../src/index.js';
import { RecipeError } from '../../src/errors/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/recipe.js');

function recipe(args: string[], stdin?: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input: stdin ?? '' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('recipe eval', () => {
  it('prints the value as JSON and exits 0', () => {
    const r = recipe(['eval', '$sum([1, 2, 3.5])']);
    expect(r).toMatchObject({ code: 0, stdout: '6.5\n' });
  });

  it('takes the context from --input (a file, or - for stdin) and variables from --bind', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'eval-cli-'));
    const order = path.join(dir, 'order.json');
    writeFileSync(
      order,
      JSON.stringify({
        items: [
          { sku: 'A1', qty: 2 },
          { sku: 'B2', qty: 1 },
        ],
      }),
    );
    expect(JSON.parse(recipe(['eval', 'items[qty > 1].sku', '--input', order]).stdout)).toBe('A1');
    expect(JSON.parse(recipe(['eval', '$count(items)', '--input', '-'], '{"items": [1, 2]}').stdout)).toBe(2);
    const bound = recipe([
      'eval',
      '{ "who": $uppercase($name), "n": $n * 2, "f": $f.x }',
      '--bind',
      'name=Ada',
      '--bind',
      'n=21',
      '--bind',
      `f=@${order.replace(/order/, 'f')}`,
    ]);
    expect(bound.code).toBe(2);
    writeFileSync(path.join(dir, 'f.json'), '{"x": [true]}');
    const ok = recipe([
      'eval',
      '{ "who": $uppercase($name), "n": $n * 2, "f": $f.x }',
      '--bind',
      'name=Ada',
      '--bind',
      'n=21',
      '--bind',
      `f=@${path.join(dir, 'f.json')}`,
    ]);
    expect(JSON.parse(ok.stdout)).toEqual({ who: 'ADA', n: 42, f: [true] });
  });

  it('accepts the ${ } of a recipe around the expression', () => {
    expect(recipe(['eval', '${ "a" & "b" }']).stdout).toBe('"ab"\n');
  });

  it('prints nothing for an expression that gives nothing', () => {
    expect(recipe(['eval', '$nothing'])).toMatchObject({ code: 0, stdout: '' });
  });

  it('points at an evaluation error inside the expression and exits 1', () => {
    const r = recipe(['eval', '1 +\n  "x" * 2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('expression:2:7: X008 expression failed: T2001');
    expect(r.stderr).toContain('    "x" * 2\n        ^\n');
  });

  it('points at a syntax error and exits 2', () => {
    const r = recipe(['eval', '$x.(a +']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^expression:1:8: E001 expression syntax error/);
  });

  it('--json gives {status, result} or {status, error} with the position', () => {
    expect(JSON.parse(recipe(['eval', '[1, 2]', '--json']).stdout)).toEqual({ status: 'ok', result: [1, 2] });
    expect(JSON.parse(recipe(['eval', '$nothing', '--json']).stdout)).toEqual({ status: 'ok' });
    const failed = recipe(['eval', '$sum("a")', '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed', error: { code: 'X008', line: 1, column: 1 } });
  });

  it('refuses an --input that is not JSON (exit 2)', () => {
    const r = recipe(['eval', '$', '--input', '-'], 'not json');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('I001 input "--input": - is not JSON');
  });
});

describe('evaluateExpression', () => {
  it('evaluates as a recipe step does, with the same built-ins', async () => {
    expect(await evaluateExpression('$csv([{"a": 1, "b": "x,y"}])')).toBe('a,b\r\n1,"x,y"\r\n');
    expect(await evaluateExpression('$base64decode($base64encode("Zoë"))')).toBe('Zoë');
    expect(await evaluateExpression('items.sku', { items: [{ sku: 'A' }, { sku: 'B' }] })).toEqual(['A', 'B']);
    expect(await evaluateExpression('$a + $b', undefined, { a: 1, b: 2 })).toBe(3);
    expect(await evaluateExpression('$nothing')).toBeUndefined();
  });

  it('rejects with catalog errors located in the expression', async () => {
    const syntax = await evaluateExpression('(1 + ').catch((e: unknown) => e);
    expect(syntax).toBeInstanceOf(RecipeError);
    expect(syntax).toMatchObject({ code: 'E001', location: { file: 'expression', line: 1 } });
    const runtime = await evaluateExpression('\n  $number("x")').catch((e: unknown) => e);
    expect(runtime).toMatchObject({ code: 'X008', location: { line: 2, column: 3 } });
  });

  it('is bounded (timeoutMs)', async () => {
    const err = await evaluateExpression(
      '($f := function($n) { $f($n + 1) }; $f(0))',
      undefined,
      {},
      { timeoutMs: 50 },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'X018' });
  });
});
