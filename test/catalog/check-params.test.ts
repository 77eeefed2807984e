/** The static params checker on its own: what it judges, and what it leaves alone (no false positives). */
import { describe, expect, it } from 'vitest';
import { checkParams, type CatalogAction } from '../../src/catalog/index.js';
import type { CompiledExpr, Value } from '../../src/compile/plan.js';
import { compileValue } from '../../src/expr/index.js';

const action = (params: Record<string, unknown>, extra: Partial<CatalogAction> = {}): CatalogAction => ({
  entity: 'things',
  action: 'make',
  summary: '',
  write: true,
  paging: null,
  params,
  ...extra,
});

/** Params as a recipe writes them (`${ }` compiled), checked; the problems as "code path". */
function problems(schema: Record<string, unknown>, raw: unknown, extra: Partial<CatalogAction> = {}): string[] {
  const { value, diagnostics } = compileValue(raw, { file: 't.yaml', pointer: '/p' });
  expect(diagnostics).toEqual([]);
  return checkParams(action(schema, extra), value).map((p) => `${p.code} ${p.path.join('.')}`);
}

const obj = (properties: Record<string, unknown>, required: string[] = [], more: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
  ...more,
});

describe('checkParams', () => {
  it('judges literals fully: required, unknown, type, enum, range, length, pattern, items', () => {
    const schema = obj(
      {
        n: { type: 'integer', minimum: 1, maximum: 10 },
        s: { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-z]+$' },
        e: { enum: ['A', 'B'] },
        list: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string' } },
      },
      ['n'],
    );
    expect(problems(schema, { s: 'X', e: 'C', list: [], extra: 1 })).toEqual([
      'A003 ',
      'A007 s',
      'A006 e',
      'A007 list',
      'A004 extra',
    ]);
    expect(problems(schema, { n: 11, s: 'abcd', list: [1, 'a', 'b'] })).toEqual([
      'A007 n',
      'A007 s',
      'A007 list',
      'A005 list.0',
    ]);
    expect(problems(schema, { n: 1.5 })).toEqual(['A005 n']);
    expect(problems(schema, { n: 3, s: 'ab', e: 'A', list: ['x'] })).toEqual([]);
  });

  it('says nothing about the value of an expression, and checks the keys and items around it', () => {
    const schema = obj({ n: { type: 'integer', maximum: 10 }, e: { enum: ['A'] }, m: obj({ k: { type: 'string' } }) }, [
      'n',
    ]);
    expect(problems(schema, { n: '${ $x }', e: '${ $y }', m: { k: '${ 1 }' } })).toEqual([]);
    expect(problems(schema, { e: '${ $y }', m: { k: '${ 1 }', other: '${ 2 }' } })).toEqual(['A003 ', 'A004 m.other']);
    expect(problems(schema, '${ {"anything": 1} }')).toEqual([]);
  });

  it('a template is a string: wrong for a number, and its literal parts must fit an allowed value', () => {
    const schema = obj({ n: { type: 'integer' }, e: { type: 'string', enum: ['NOT_STARTED', 'DONE'] } });
    expect(problems(schema, { n: '${ $x } items' })).toEqual(['A005 n']);
    expect(problems(schema, { e: 'NOT_${ $x }' })).toEqual([]);
    expect(problems(schema, { e: 'LATER_${ $x }' })).toEqual(['A006 e']);
  });

  it('counts only the members sure to be sent against maxProperties, and all of them against minProperties', () => {
    const schema = {
      type: 'object',
      minProperties: 2,
      maxProperties: 1,
      additionalProperties: { enum: ['asc', 'desc'] },
    };
    expect(problems(schema, { a: 'asc', b: '${ $maybe }' })).toEqual([]);
    expect(problems(schema, { a: 'asc', b: 'desc' })).toEqual(['A007 ']);
    expect(problems(schema, { a: 'up' })).toEqual(['A006 a', 'A007 ']);
  });

  it('refuses a deprecated param without a schema (not accepted), and applies limits beyond the schema', () => {
    const schema = obj({
      limit: { type: 'integer', maximum: 100 },
      history: { type: 'string' },
      cursor: { deprecated: true },
    });
    const limits = { limits: [{ param: 'limit', maximum: 50, when: 'history' }] };
    expect(problems(schema, { cursor: 'x' }, limits)).toEqual(['A008 cursor']);
    expect(problems(schema, { limit: 80, history: 'a' }, limits)).toEqual(['A007 limit']);
    expect(problems(schema, { limit: 80, history: '${ $h }' }, limits)).toEqual([]);
    expect(problems(schema, { limit: 80 }, limits)).toEqual([]);
  });

  it('leaves alone keywords it does not know (anyOf, $ref, not): no false alarms', () => {
    const schema = obj({
      x: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      y: { $ref: '#/$defs/z' },
      w: { not: {} },
    });
    expect(problems(schema, { x: true, y: 1, w: 2 })).toEqual([]);
  });

  it('checks computed params (a dry-run write) as one literal', () => {
    const schema = obj({ p: { enum: ['LOW'] } });
    const literal: Value = { kind: 'literal', value: { p: 'HIGH' } };
    expect(checkParams(action(schema), literal).map((p) => p.params)).toEqual([
      { where: 'things.make params.p', allowed: '"LOW"', actual: '"HIGH"' },
    ]);
    const expr = { kind: 'expr', expr: {} as CompiledExpr } as Value;
    expect(checkParams(action(schema), expr)).toEqual([]);
  });
});
