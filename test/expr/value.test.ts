import jsonata from 'jsonata';
import { compiledBuiltinNames, EXTENSIONS } from '../../src/expr/functions/registry.js';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/compile/plan.js';
import { compileValue, evalValue, type JsonataExpr, listBuiltins } from '../../src/expr/index.js';

const site = { file: 't.yaml', pointer: '/x' };
const compile = (raw: unknown) => compileValue(raw, site);

describe('compileValue', () => {
  it('keeps values without expressions as literals (containers whole)', () => {
    expect(compile(42).value).toEqual({ kind: 'literal', value: 42 });
    expect(compile({ a: [1, 'two', null] }).value).toEqual({ kind: 'literal', value: { a: [1, 'two', null] } });
    expect(compile('price: $${ x }').value).toEqual({ kind: 'literal', value: 'price: ${ x }' });
  });

  it('makes a scalar that is exactly one ${ } an expr, with its free variables', () => {
    const { value, diagnostics } = compile('${ $count($big) > $threshold }');
    expect(diagnostics).toEqual([]);
    expect(value.kind).toBe('expr');
    if (value.kind !== 'expr') return;
    expect(value.expr.source).toBe(' $count($big) > $threshold ');
    expect(value.expr.variables).toEqual(['big', 'threshold']);
  });

  it('leaves out names bound inside the expression, built-ins and the context variables', () => {
    const { value } = compile('${ ($t := 2; $map($items, function($v, $i) { $v * $t + $i + $k })).$string($) & $$.x }');
    expect(value.kind === 'expr' && value.expr.variables).toEqual(['items', 'k']);
  });

  it('makes text around or several ${ } a template', () => {
    const { value } = compile('Hello ${ $name }, ${ $n } new');
    expect(value.kind).toBe('template');
    if (value.kind !== 'template') return;
    expect(value.parts.filter((p) => typeof p === 'string')).toEqual(['Hello ', ', ', ' new']);
    expect(compile('${ $a }${ $b }').value.kind).toBe('template');
  });

  it('keeps containers with expressions inside as object/array Values', () => {
    const { value } = compile({ params: { id: '${ $inputs.id }', limit: 10 }, tags: ['a', '${ $t }'] });
    expect(value.kind).toBe('object');
    if (value.kind !== 'object') return;
    const params = value.entries.params as Value;
    expect(params.kind).toBe('object');
    expect(params.kind === 'object' && params.entries.limit).toEqual({ kind: 'literal', value: 10 });
    expect(value.entries.tags?.kind).toBe('array');
  });

  it('reports syntax errors, unclosed and empty expressions with catalog codes', () => {
    expect(compile('${ 1 + }').diagnostics.map((d) => d.code)).toEqual(['E001']);
    expect(compile('a ${ 1').diagnostics.map((d) => d.code)).toEqual(['E002']);
    expect(compile('${   }').diagnostics.map((d) => d.code)).toEqual(['E003']);
    expect(compile({ a: ['${ ( }', '${ ) }'] }).diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['E001', '/x/a/0'],
      ['E001', '/x/a/1'],
    ]);
  });

  it('asks the site for the position of the error inside the scalar', () => {
    const asked: [string, number | undefined][] = [];
    const locate = (pointer: string, offset?: number) => {
      asked.push([pointer, offset]);
      return { line: 7, column: 3 + (offset ?? 0) };
    };
    const { diagnostics } = compileValue('ab ${ 1 + + 2 }', { file: 'f.yaml', pointer: '/p', locate });
    // the second "+" is at index 10 of the scalar
    expect(diagnostics[0]).toMatchObject({ code: 'E001', file: 'f.yaml', line: 7, column: 13, pointer: '/p' });
  });
});

describe('evalValue', () => {
  it('gives an expr its typed value and a template a string', async () => {
    const bindings = { big: [{ id: 1 }, { id: 2 }], name: 'Ada', obj: { a: 1 }, nothing: null };
    expect(await evalValue(compile('${ $big.id }').value, bindings)).toEqual([1, 2]);
    expect(await evalValue(compile('${ $count($big) }').value, bindings)).toBe(2);
    expect(
      await evalValue(
        compile('${ $name } has ${ $count($big) } ${ $obj } [${ $nothing }${ $missing }]').value,
        bindings,
      ),
    ).toBe('Ada has 2 {"a":1} []');
  });

  it('evaluates containers member by member and leaves out undefined members', async () => {
    const v = compile({ id: '${ $inputs.id }', after: '${ $cursor }', list: ['${ 1 + 1 }', 'x'], fixed: true }).value;
    expect(await evalValue(v, { inputs: { id: 'c-1' } })).toEqual({ id: 'c-1', list: [2, 'x'], fixed: true });
  });

  it('returns literals as they are', async () => {
    expect(await evalValue(compile({ a: [1] }).value, {})).toEqual({ a: [1] });
  });

  it('rejects with the JSONata error when evaluation fails', async () => {
    await expect(evalValue(compile('${ $error("boom") }').value, {})).rejects.toThrow('boom');
  });
});

describe('listBuiltins', () => {
  const own = new Set(EXTENSIONS.map((e) => e.name));
  it("matches the functions jsonata itself defines, and this engine's own", async () => {
    for (const name of listBuiltins()) {
      if (own.has(name)) continue;
      expect(await jsonata(`$type($${name})`).evaluate({}), name).toBe('function');
    }
    expect(await jsonata('$type($notABuiltin)').evaluate({})).toBeUndefined();
    for (const name of own) expect(listBuiltins(), name).toContain(name);
  });

  it('is what the compiler knows, $eval aside (which jsonata always evaluates)', () => {
    expect([...compiledBuiltinNames(), 'eval'].sort()).toEqual([...listBuiltins()].sort());
  });
});

describe('JsonataExpr.locateOffset', () => {
  it('maps a runtime error position back into the file', async () => {
    const locate = (_pointer: string, offset?: number) => ({ line: 3, column: 10 + (offset ?? 0) });
    const { value } = compileValue('x ${ $a + $string() }', { file: 'f.yaml', pointer: '/p', locate });
    if (value.kind !== 'template') throw new Error('expected a template');
    const expr = value.parts[1] as JsonataExpr;
    const error = await expr.evaluate({ a: 'text' }).then(
      () => undefined,
      (e: { position?: number }) => e,
    );
    expect(typeof error?.position).toBe('number');
    // the expression source starts at index 4 of the scalar
    expect(expr.locateOffset(error?.position ?? 0)).toMatchObject({
      file: 'f.yaml',
      line: 3,
      column: 14 + (error?.position ?? 0),
    });
  });
});
