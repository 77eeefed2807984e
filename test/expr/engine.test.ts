/**
 * The compiled form and jsonata together: which engine an expression gets, and the evaluations the compiled
 * form hands to jsonata (a function value jsonata made, a host function answering a promise, a recursion
 * deeper than the JS stack), with the same answers as jsonata alone.
 */
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { parseExpr, type JsonataExpr } from '../../src/expr/index.js';

const loc = { file: 't.yaml', line: 1, column: 1, pointer: '' };
function expr(source: string): JsonataExpr {
  const parsed = parseExpr(source, loc, () => loc);
  if ('error' in parsed) throw new Error(parsed.error.reason);
  return parsed.expr;
}

describe('engines', () => {
  it('compiles the everyday core and says why jsonata takes the rest', () => {
    expect(expr('$c.{ "id": id, "n": $count(tags) }').engine).toEqual({ kind: 'compiled' });
    expect(expr('$c.a.%.b').engine).toEqual({ kind: 'jsonata', reason: 'the parent operator (%)' });
    expect(expr('$c@$x.a').engine).toEqual({ kind: 'jsonata', reason: 'a focus variable binding (@$)' });
    expect(expr('$c#$i.a').engine).toEqual({ kind: 'jsonata', reason: 'an index variable binding (#$)' });
    expect(expr('$ ~> |a|{"b": 1}|').engine).toEqual({ kind: 'jsonata', reason: 'the transform operator (| ... |)' });
    expect(expr('$f(?, 1)').engine).toEqual({ kind: 'jsonata', reason: 'partial application (?)' });
    expect(expr('$eval("1")').engine).toEqual({ kind: 'jsonata', reason: '$eval' });
    expect(expr('[$x := 1, $x]').engine).toEqual({
      kind: 'jsonata',
      reason: ':= directly inside an array or object constructor',
    });
    expect(expr('[($x := 1), $x]').engine).toEqual({ kind: 'compiled' });
  });

  it('hands an evaluation to jsonata when it calls a function value jsonata made', async () => {
    const made = (await jsonata('function($x) { $x * 10 }').evaluate(undefined)) as unknown;
    const e = expr('[1, 2].$f($)');
    expect(await e.evaluate({ f: made })).toEqual([10, 20]);
    expect(e.handedBack).toMatchObject({ count: 1, reason: 'a function value made by jsonata' });
  });

  it('calls a host function, and hands to jsonata one that answers a promise', async () => {
    const sync = expr('$twice(21)');
    expect(await sync.evaluate({ twice: (x: number) => x * 2 })).toBe(42);
    expect(sync.handedBack.count).toBe(0);
    const later = expr('$twice(21)');
    expect(await later.evaluate({ twice: async (x: number) => Promise.resolve(x * 2) })).toBe(42);
    expect(later.handedBack.count).toBe(1);
  });

  it('hands a recursion deeper than the JS stack to jsonata, with the same answer', async () => {
    const e = expr('($f := function($k) { $k <= 1 ? 1 : $k + $f($k - 1) }; $f(3000))');
    expect(await e.evaluate({})).toBe(4501500);
    expect(e.handedBack.reason).toContain('stack');
  });

  it('runs tail recursion without growing the stack (100,000 calls)', async () => {
    const e = expr('($f := function($k, $acc) { $k = 0 ? $acc : $f($k - 1, $acc + 1) }; $f(100000, 0))');
    expect(await e.evaluate({})).toBe(100000);
    expect(e.handedBack.count).toBe(0);
  });

  it('a lambda made by one evaluation works in a later one, compiled or in jsonata', async () => {
    const f = await expr('function($s) { $uppercase($s) & "!" }').evaluate({});
    expect(typeof f).toBe('function');
    expect(await expr('$map(["a", "b"], $f)').evaluate({ f })).toEqual(['A!', 'B!']);
    // The parent operator keeps this one in jsonata, which calls the compiled lambda as a JS function.
    expect(await expr('{"a": {"b": "x"}}.a.b.$f(%.b)').evaluate({ f })).toBe('X!');
  });

  it('gives every $now() of one evaluation the same time', async () => {
    expect(await expr('[1..50].$now() ~> $distinct() ~> $count()').evaluate({})).toBe(1);
    expect(await expr('$millis() = $toMillis($now())').evaluate({})).toBe(true);
  });

  it("draws $random() and $shuffle() from the limits' source, compiled or in jsonata", async () => {
    const draws = (): (() => number) => {
      const values = [0.1, 0.9, 0.5, 0.7, 0.2];
      let i = 0;
      return () => values[i++ % values.length] as number;
    };
    const limits = () => ({
      deadline: Infinity,
      now: Date.now,
      timeoutMs: 1000,
      source: 'recipe' as const,
      reads: { clock: Date.now, random: draws() },
    });
    const compiled = expr('[$random(), $random(), $shuffle([1, 2, 3])]');
    const fallback = expr('[$random(), $random(), $shuffle([1, 2, 3]), $eval("1")]');
    expect(compiled.engine.kind).toBe('compiled');
    expect(fallback.engine.kind).toBe('jsonata');
    // (The constructor flattens the shuffled array.) Fisher-Yates (inside-out), one draw per item: 0.5, 0.7, 0.2 give j = 0, 1, 0.
    expect(await compiled.evaluate({}, limits())).toEqual([0.1, 0.9, 3, 2, 1]);
    expect(await fallback.evaluate({}, limits())).toEqual([0.1, 0.9, 3, 2, 1, 1]);
    const other = () => ({ ...limits(), reads: { clock: Date.now, random: () => 0 } });
    expect(await compiled.evaluate({}, other())).toEqual([0, 0, 3, 1, 2]);
    expect(await fallback.evaluate({}, other())).toEqual([0, 0, 3, 1, 2, 1]);
  });

  it('gives plain arrays and objects back, equal to what jsonata gives', async () => {
    const bound = {
      c: [
        { id: 1, tags: ['a'] },
        { id: 2, tags: [] },
      ],
    };
    const source = '{ "ids": $c.id, "first": $c[0].tags, "n": $c.{ "t": tags[] } }';
    const compiled = await expr(source).evaluate(bound);
    // jsonata marks arrays of its input (keepSingleton on `tags[]`): give it its own copy.
    const copy = JSON.parse(JSON.stringify(bound)) as typeof bound;
    const viaJsonata = JSON.parse(JSON.stringify(await jsonata(source).evaluate(undefined, copy))) as unknown;
    expect(compiled).toStrictEqual(viaJsonata);
    expect(Object.getOwnPropertySymbols((compiled as { ids: unknown[] }).ids)).toEqual([]);
  });
});
