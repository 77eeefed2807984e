import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

// Issue 25's findings on the command line: nesting past the documented depth is Y013 at any depth (no stack
// overflow), and `-i __proto__=1` is an unknown input like any other (not silently dropped).

const DEPTH = 10_000;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-hostile-inputs-'));
  writeFileSync(join(dir, 'deep.yaml'), `a: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`);
  writeFileSync(join(dir, 'deep.json'), `{"a": ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`);
  writeFileSync(join(dir, 'deep-inputs.yaml'), `a: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`);
  writeFileSync(
    join(dir, 'list.yaml'),
    'version: 1\nname: list\ninputs:\n  a: { type: array }\nsteps:\n  - transform: "${ $count($inputs.a) }"\n',
  );
});

describe('hostile input on the command line', () => {
  it('a YAML file nested 10,000 deep is Y013, not a stack overflow', async () => {
    const r = await runCli(['validate', 'deep.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/deep\.yaml:1:\d+: Y013 nesting deeper than 100 levels/);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/call stack/i);
  });

  it('--inputs nested 10,000 deep (JSON or YAML) is Y013, exit 2, before the run starts', async () => {
    for (const file of ['deep.json', 'deep-inputs.yaml']) {
      const r = await runCli(['run', 'list.yaml', '--inputs', file, '--db', ':memory:'], { cwd: dir });
      expect(r.code, file).toBe(2);
      expect(r.stderr, file).toMatch(/Y013 nesting deeper than 100 levels/);
      expect(r.stderr, file).not.toMatch(/call stack/i);
    }
  });

  it('-i __proto__=1 is refused as an unknown input (I003)', async () => {
    const r = await runCli(['run', 'list.yaml', '-i', '__proto__=1', '-i', 'a=[]', '--db', ':memory:'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/I003 unknown input "__proto__"/);
  });
});
