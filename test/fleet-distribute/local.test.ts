import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';

// Without a fleet, `distribute` changes nothing: `recipe run` runs the foreach here, as an ordinary one.
const recipe = (distribute: string) => `version: 1
name: local-distribute
steps:
  - id: doubled
    foreach: "\${ [1..7] }"
    index_as: i
    concurrency: 3
    distribute: ${distribute}
    steps:
      - id: twice
        transform: "\${ $item * 2 }"
    collect: "\${ $i & ':' & $twice }"
outputs:
  doubled: "\${ $doubled }"
`;

function dirWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-local-dist-'));
  writeFileSync(join(dir, 'r.yaml'), text);
  return dir;
}

describe('distribute, run locally', () => {
  it('recipe run runs a distributed foreach as an ordinary foreach, in item order', async () => {
    const expected = ['0:2', '1:4', '2:6', '3:8', '4:10', '5:12', '6:14'];
    for (const distribute of ['{ chunk: 2 }', 'true']) {
      const dir = dirWith(recipe(distribute));
      const res = await runCli(['run', 'r.yaml', '--json'], { cwd: dir });
      expect(res.code).toBe(0);
      const report = JSON.parse(res.stdout) as { status: string; outputs: { doubled: unknown } };
      expect(report.status).toBe('ok');
      expect(report.outputs.doubled).toEqual(expected);
    }
  });

  it('recipe validate checks the field: a chunk of 0 and an unknown key are errors with their place', async () => {
    const dir = dirWith(recipe('{ chunk: 0, chnk: 3 }'));
    const res = await runCli(['validate', 'r.yaml'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stdout + res.stderr).toMatch(/r\.yaml:8:\d+: S009 distribute\.chunk/);
    expect(res.stdout + res.stderr).toMatch(/r\.yaml:8:\d+: S006 distribute: unknown field "chnk"/);
  });
});
