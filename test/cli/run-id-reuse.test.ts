import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';

/**
 * A run id names one run: `recipe run --run-id X` with the inputs X started with prints X's recorded report
 * (as before), with other inputs it is refused (J021, exit 2) instead of answering with X's old report.
 */
describe('a run id reused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recipe-reuse-'));
  const file = join(dir, 'double.yaml');
  writeFileSync(
    file,
    `version: 1
name: double
inputs:
  n: { type: integer, default: 2 }
steps:
  - id: doubled
    transform: "\${ $inputs.n * 2 }"
outputs:
  doubled: "\${ $doubled }"
`,
  );
  const run = (...args: string[]) => runCli(['run', file, '--db', join(dir, 'local.db'), ...args], { cwd: dir });

  it('with the same inputs prints the recorded report; with other inputs is refused with J021, exit 2', async () => {
    const first = await run('-i', 'n=3', '--run-id', 'reuse-1', '--json');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'ok', outputs: { doubled: 6 } });

    const same = await run('-i', 'n=3', '--run-id', 'reuse-1', '--json');
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('run reuse-1 already succeeded: its recorded report (nothing sent)');

    const other = await run('-i', 'n=4', '--run-id', 'reuse-1', '--json');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /^J021 run id "reuse-1" is already a run \(succeeded\) with other inputs \(n\): a run id names one run; leave --run-id out or choose a new one$/m,
    );
    expect(JSON.parse(other.stdout)).toMatchObject({ status: 'failed', error: { code: 'J021' } });

    // The default counts as given: n left out is 2, not the 3 the run started with.
    const defaulted = await run('--run-id', 'reuse-1');
    expect(defaulted.code).toBe(2);
    expect(defaulted.stderr).toContain('J021');
  }, 60_000);
});
