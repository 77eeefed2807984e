import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import { startTestStore, STORE_KINDS, type TestStore } from './test-stores.js';

/**
 * `submit --run-id X` again: the same inputs are "already submitted" (exit 0); other inputs are J021, exit 2.
 * On each store (issue 27).
 */
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-submit-reuse-'));
  mkdirSync(join(dir, 'recipes'));
  writeFileSync(
    join(dir, 'recipes', 'one.yaml'),
    `version: 1
name: one
inputs:
  n: { type: integer, default: 1 }
steps:
  - id: doubled
    transform: "\${ $inputs.n * 2 }"
`,
  );
});

describe.each(STORE_KINDS)('submit --run-id reused, on %s', (kind) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await startTestStore(kind);
  }, 60_000);

  afterAll(async () => {
    await store?.stop();
  });

  const submit = (...args: string[]) =>
    runCli(['submit', 'recipes/one.yaml', '--recipes', 'recipes', ...store.flag, ...args], {
      cwd: dir,
      env: { CONNECTOR_API_URL: undefined, RECIPE_REDIS_URL: undefined, RECIPE_POSTGRES_URL: undefined },
      timeoutMs: 30_000,
    });

  it('keeps today behaviour for the same inputs and refuses other inputs with J021 (nothing enqueued)', async () => {
    const first = await submit('--run-id', 'sub-1', '-i', 'n=3');
    expect(first.code, first.stderr).toBe(0);
    const same = await submit('--run-id', 'sub-1', '-i', 'n=3');
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('run sub-1 was already submitted');
    const other = await submit('--run-id', 'sub-1', '-i', 'n=4');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/J021 run id "sub-1" is already a run \(queued\) with other inputs \(n\)/);
  }, 60_000);
});
