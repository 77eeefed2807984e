/**
 * run/'s evaluate answers `${ $name }` from the scope without JSONata, and walks containers itself; the result
 * must be what expr/'s evalValue (JSONata over the flattened bindings) gives, for every kind of bound value.
 */
import { describe, expect, it } from 'vitest';
import { compileValue, evalValue } from '../../src/expr/index.js';
import { evaluate } from '../../src/frame/eval.js';
import { Scope } from '../../src/frame/scope.js';

const site = { file: 't.yaml', pointer: '/x' };
const compile = (raw: unknown) => {
  const { value, diagnostics } = compileValue(raw, site);
  expect(diagnostics).toEqual([]);
  return value;
};

const bound: Record<string, unknown> = {
  str: 'c-1',
  num: 42,
  nul: null,
  undef: undefined,
  arr: [1, [2, 3], { a: 1 }],
  one: ['only'],
  obj: { properties: { email: 'A@B.example' }, tags: [] },
  empty: [],
  // A binding named like a built-in shadows it, in JSONata and in the bindings an expression is given.
  sum: 'not the built-in',
};

describe('run evaluate', () => {
  const outer = new Scope();
  for (const [k, v] of Object.entries(bound)) outer.set(k, v);
  const scope = outer.child();
  scope.set('str', 'inner wins');

  const raws: unknown[] = [
    ...Object.keys(bound).map((k) => `\${ $${k} }`),
    '${$num}',
    '${ $missing }',
    '${ $count($arr) }',
    '${ $obj.properties.email }',
    {
      contactId: '${ $str }',
      n: '${ $num }',
      gone: '${ $undef }',
      gone2: '${ $missing }',
      keep: 'x',
      nested: { v: '${ $arr }' },
    },
    ['${ $one }', '${ $empty }', 'id ${ $str }', 7],
    // Only the names an expression's variables hold are bound for it, except under $eval (any name).
    '${ $sum & "!" }',
    '${ ($f := function($x) { $x + $num }; $f(1)) }',
    '${ $eval("$num + 1") }',
    'ids ${ $str } and ${ $string($num) & $sum }',
  ];

  for (const raw of raws) {
    it(`gives what JSONata gives for ${JSON.stringify(raw)}`, async () => {
      const value = compile(raw);
      const viaJsonata = await evalValue(value, scope.bindings());
      expect(await evaluate(value, scope)).toEqual(viaJsonata);
    });
  }

  it('step-local names (extra) win over the scope, as in the bindings', async () => {
    const value = compile({ r: '${ $result }', s: '${ $str }' });
    const extra = { result: { id: 9 }, str: 'from extra' };
    expect(await evaluate(value, scope, extra)).toEqual({ r: { id: 9 }, s: 'from extra' });
    expect(await evaluate(value, scope, extra)).toEqual(await evalValue(value, scope.bindings(extra)));
  });

  it('hands bound values through by reference (no copy per item)', async () => {
    expect(await evaluate(compile('${ $obj }'), scope)).toBe(bound.obj);
  });
});
