/**
 * Habits from other tools (issue 23 point 4) through the real CLI: `recipe eval` prints the hints
 * `recipe validate` gives inside `${ }`, and a JSONata signature error names the argument's type and value,
 * masked in a run when it holds a secret. The hints' texts and places are pinned by test/golden/.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-habit-hints-'));
});

describe('recipe eval prints the hints validate gives', () => {
  it.each([
    ['$x == 1', 'W003', /expression:1:4: W003 "==" is not a JSONata operator; JSONata compares with "="/],
    ['$lenght("abc")', 'W011', /expression:1:1: W011 "\$lenght" is not a built-in function; did you mean "\$length"\?/],
    ['${{ inputs.x }}', 'W008', /W008 "\$\{\{ inputs\.x \}\}" is GitHub Actions syntax.*"\$\{ \$inputs\.x \}"/],
    ['$steps.a.outputs.b', 'W009', /W009 "\$steps\.a\.outputs\.b" .*did you mean "\$a\.b"\?/],
    ['$$.id', 'W010', /W010 "\$\$" is JSONata's root input/],
  ])('%s → %s, before the value or the error', async (expression, code, message) => {
    const r = await runCli(['eval', expression, '--bind', 'x=1'], { cwd: dir });
    expect(r.stderr).toMatch(message);
    expect(r.stderr.indexOf(code)).toBe(r.stderr.split('\n')[0]!.indexOf(code)); // the hint comes first
  });

  it('keeps the exit code: a hint alone does not fail', async () => {
    const r = await runCli(['eval', '$steps.a.outputs.b'], { cwd: dir });
    expect(r.code).toBe(0);
    expect((await runCli(['eval', '$x == 1', '--bind', 'x=1'], { cwd: dir })).code).toBe(2);
  });

  it('does not hint $ when --input gives it a value, and hints nothing on a clean expression', async () => {
    const input = join(dir, 'in.json');
    writeFileSync(input, '{"a": 2}');
    const withInput = await runCli(['eval', '$.a', '--input', input], { cwd: dir });
    expect(withInput).toMatchObject({ code: 0, stdout: '2\n', stderr: '' });
    expect((await runCli(['eval', '$.a'], { cwd: dir })).stderr).toMatch(/W010 "\$" is JSONata's context value/);
    expect(await runCli(['eval', '$length("abc")'], { cwd: dir })).toMatchObject({ code: 0, stderr: '' });
  });

  it('--json carries the hints as warnings', async () => {
    const r = await runCli(['eval', '$lenght("a")', '--json'], { cwd: dir });
    const out = JSON.parse(r.stdout) as { status: string; warnings: { code: string; line: number; column: number }[] };
    expect(out.status).toBe('failed');
    expect(out.warnings).toEqual([expect.objectContaining({ code: 'W011', line: 1, column: 1 })]);
  });
});

describe('a signature error names the argument', () => {
  it('gives its type and value', async () => {
    const r = await runCli(['eval', '$substring("abc", "x")'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'T0410 Argument 2 of function "substring" does not match function signature: got a string "x"',
    );
  });

  it('gives the size of a long value instead of cutting it', async () => {
    const r = await runCli(['eval', '$uppercase([1..100])'], { cwd: dir });
    expect(r.stderr).toContain('got an array of 100 items');
  });

  it('masks a secret in the value, in the text and --json reports of a run', async () => {
    const recipe = join(dir, 'secret-arg.yaml');
    writeFileSync(
      recipe,
      'version: 1\nname: secret-arg\nsecrets: [API_KEY]\nsteps:\n  - log: "${ $uppercase({\'key\': $secrets.API_KEY}) }"\n',
    );
    const env = { API_KEY: 'hunter2-not-for-logs' };
    for (const args of [
      ['run', recipe],
      ['run', recipe, '--json'],
    ]) {
      const r = await runCli(args, { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('does not match function signature: got an object {"key":"***"}');
      expect(r.stdout + r.stderr).not.toContain('hunter2');
    }
  }, 180_000);
});
