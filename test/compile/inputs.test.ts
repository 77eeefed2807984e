import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRecipe, resolveInputs, type Plan } from '../../src/compile/index.js';

let plan: Plan;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'inputs-'));
  const file = path.join(dir, 'r.yaml');
  writeFileSync(
    file,
    `version: 1
name: inputs
inputs:
  name: { type: string, required: true }
  limit: { type: integer, default: 10 }
  ratio: { type: number }
  dry: { type: boolean, default: false }
  ids: { type: array }
  filter: { type: object, default: { stage: open } }
  mode: { type: string, enum: [fast, slow], default: fast }
steps:
  - log: "\${ $inputs.name }"
`,
  );
  const result = await loadRecipe(file);
  expect(result.diagnostics).toEqual([]);
  plan = result.plan as Plan;
});

describe('resolveInputs', () => {
  it('coerces command-line strings to the declared types and fills defaults', () => {
    const { values, diagnostics } = resolveInputs(plan, {
      name: 'Ada',
      limit: '25',
      ratio: '0.5',
      dry: 'true',
      ids: '["a","b"]',
      mode: 'slow',
    });
    expect(diagnostics).toEqual([]);
    expect(values).toEqual({
      name: 'Ada',
      limit: 25,
      ratio: 0.5,
      dry: true,
      ids: ['a', 'b'],
      filter: { stage: 'open' },
      mode: 'slow',
    });
  });

  it('accepts typed values as they are', () => {
    const { values, diagnostics } = resolveInputs(plan, { name: 'x', limit: 3, dry: true, filter: { a: 1 } });
    expect(diagnostics).toEqual([]);
    expect(values).toMatchObject({ limit: 3, dry: true, filter: { a: 1 } });
  });

  it('gives each missing, unknown, mistyped or out-of-enum input its code', () => {
    const { diagnostics } = resolveInputs(plan, {
      limt: '5',
      limit: '2.5',
      ratio: 'abc',
      dry: 'yes',
      ids: '{"a":1}',
      filter: '[1]',
      mode: 'medium',
    });
    expect(diagnostics.map((d) => `${d.code} ${d.message.match(/"(\w+)"/)?.[1]}`).sort()).toEqual(
      ['I002 name', 'I003 limt', 'I004 dry', 'I004 filter', 'I004 ids', 'I004 limit', 'I004 ratio', 'I005 mode'].sort(),
    );
    const unknown = diagnostics.find((d) => d.code === 'I003');
    expect(unknown?.message).toContain('did you mean "limit"');
    expect(unknown?.file).toBe(plan.inputs.name?.loc.file);
  });

  it('points input problems at the declaration in the recipe', () => {
    const { diagnostics } = resolveInputs(plan, {});
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'I002', line: 4, column: 3 });
  });

  it('does not share default objects between runs', () => {
    const first = resolveInputs(plan, { name: 'a' }).values;
    (first.filter as Record<string, unknown>).stage = 'changed';
    expect(resolveInputs(plan, { name: 'a' }).values.filter).toEqual({ stage: 'open' });
  });
});
