import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecipe, type Plan } from '../../src/compile/index.js';
import { evalValue } from '../../src/expr/index.js';

function recipeDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'compile-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function planOf(text: string): Promise<Plan> {
  const dir = recipeDir({ 'r.yaml': text });
  const { plan, diagnostics } = await loadRecipe(path.join(dir, 'r.yaml'));
  expect(diagnostics).toEqual([]);
  return plan as Plan;
}

describe('loadRecipe', () => {
  it('builds a frozen plan with defaults filled in', async () => {
    const plan = await planOf(`version: 1
name: defaults
connector: { id: c-1 }
steps:
  - id: page
    paginate: { entity: deals, action: list }
  - foreach: "\${ $page }"
    steps:
      - log: "\${ $item.id }"
  - execute: { entity: deals, action: get, wait_for_context_store: true }
    retry: { max_attempts: 5 }
    on_error: continue
    timeout_ms: 5000
  - download: { entity: files, params: { fileId: f1 }, to: "out/f1.bin" }
`);
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.steps[0])).toBe(true);
    const [page, loop, exec, download] = plan.steps;
    expect(page).toMatchObject({
      kind: 'paginate',
      id: 'page',
      maxPages: 1000,
      onError: 'fail',
      waitForContextStore: false,
      params: { kind: 'literal', value: {} },
    });
    expect(loop).toMatchObject({ kind: 'foreach', as: 'item', concurrency: 1 });
    expect(exec).toMatchObject({
      kind: 'execute',
      waitForContextStore: true,
      onError: 'continue',
      timeoutMs: 5000,
      retry: { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 20000, factor: 2, jitter: true },
    });
    expect(download).toMatchObject({
      kind: 'download',
      action: 'download',
      to: { kind: 'literal', value: 'out/f1.bin' },
    });
    expect(plan.connector).toMatchObject({ kind: 'id', id: { kind: 'literal', value: 'c-1' } });
    expect(page?.loc).toMatchObject({ line: 5, column: 5, pointer: '/steps/0' });
  });

  it('keeps compiled expressions with their location in the file', async () => {
    const plan = await planOf(`version: 1
name: exprs
inputs:
  id: { type: string, required: true }
steps:
  - id: c
    execute: { entity: contacts, action: get, params: { contactId: "\${ $inputs.id }" } }
    assign: { took: "\${ $response.execution_metadata.execution_time_ms }" }
outputs:
  took: "\${ $took }"
`);
    const step = plan.steps[0];
    if (step?.kind !== 'execute') throw new Error('expected an execute step');
    expect(await evalValue(step.params, { inputs: { id: 'c-9' } })).toEqual({ contactId: 'c-9' });
    const took = step.assign?.took;
    expect(took?.kind === 'expr' && took.expr.loc).toMatchObject({
      line: 8,
      column: 22,
      pointer: '/steps/0/assign/took',
    });
    expect(plan.inputs.id).toMatchObject({ type: 'string', required: true, loc: { line: 4, column: 3 } });
  });

  it('compiles called recipes into the call step', async () => {
    const dir = recipeDir({
      'main.yaml': `version: 1
name: main
steps:
  - id: sub
    call: ./lib/sub.yaml
    with: { n: 2 }
outputs:
  doubled: "\${ $sub.doubled }"
`,
      'lib/sub.yaml': `version: 1
name: sub
inputs:
  n: { type: integer, required: true }
steps:
  - log: "n is \${ $inputs.n }"
outputs:
  doubled: "\${ $inputs.n * 2 }"
`,
    });
    const { plan, diagnostics } = await loadRecipe(path.join(dir, 'main.yaml'));
    expect(diagnostics).toEqual([]);
    const call = plan?.steps[0];
    if (call?.kind !== 'call') throw new Error('expected a call step');
    expect(call.path).toBe(path.join(dir, 'lib/sub.yaml'));
    expect(call.plan.name).toBe('sub');
    expect(Object.keys(call.plan.outputs)).toEqual(['doubled']);
  });

  it('takes shared settings from anchors and merge keys', async () => {
    const plan = await planOf(`version: 1
name: merged
x-defaults: &defaults
  retry: { max_attempts: 5 }
  on_error: continue
steps:
  - <<: *defaults
    execute: { entity: deals, action: list }
  - <<: *defaults
    on_error: fail
    execute: { entity: deals, action: list }
`);
    expect(plan.steps.map((s) => [s.onError, s.retry?.maxAttempts])).toEqual([
      ['continue', 5],
      ['fail', 5],
    ]);
  });

  it('collects every problem of a file, sorted by position', async () => {
    const dir = recipeDir({
      'r.yaml': `version: 1
name: many
steps:
  - log: "\${ $a }"
  - log: "\${ 1 + }"
  - id: a
    log: x
  - id: a
    log: y
`,
    });
    const { plan, diagnostics } = await loadRecipe(path.join(dir, 'r.yaml'), { displayName: 'r.yaml' });
    expect(plan).toBeUndefined();
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
      'r.yaml:4:14 R003',
      'r.yaml:5:18 E001',
      'r.yaml:8:9 R001',
    ]);
  });

  it('accepts the scoping rules the runner implements', async () => {
    await planOf(`version: 1
name: scopes
secrets: [TOKEN]
steps:
  - id: list
    paginate: { entity: deals, action: list, next: "\${ $response.next ? { 'after': $response.next } : null }" }
    assign: { n: "\${ $count($result) }", also: "\${ $list }" }
  - set: { threshold: 10, auth: "Bearer \${ $secrets.TOKEN }" }
  - id: loop
    foreach: "\${ $list }"
    as: deal
    index_as: i
    steps:
      - id: inner
        transform: "\${ $deal.amount > $threshold ? $i : null }"
      - paginate: { entity: notes, action: list }
        as: note
        steps:
          - log: "\${ $note.id } of \${ $deal.id } (\${ $inner }, \${ $n }, run \${ $run.id })"
    collect: "\${ $inner }"
outputs:
  picked: "\${ $loop }"
  also: "\${ $also }"
`);
  });
});
