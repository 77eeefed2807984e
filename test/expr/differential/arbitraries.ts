/**
 * fast-check arbitraries for the differential tests: JSON-like data, and JSONata expressions of every form
 * the compiler accepts (paths, predicates, `[]`, order-by, group-by, constructors, operators, conditions,
 * blocks and bindings, lambdas and their calls, `~>`, ranges, wildcards, regexes and the built-ins) over
 * the names that data uses, so paths find something often enough to matter.
 */
import fc from 'fast-check';

/** Member names of generated objects (with an integer-like one: such keys come first in object key order). */
export const KEYS = ['a', 'b', 'c', '1'] as const;

const scalar = fc.oneof(
  fc.integer({ min: -4, max: 6 }),
  fc.constantFrom(0.5, -1.25, 2.75, 1e21, 0.1),
  fc.constantFrom('', 'x', 'ab', 'B', 'a,b', 'é', 'a"b', '2', 'a b'),
  fc.boolean(),
  fc.constant(null),
);

/** JSON-like values, nested up to a few levels. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** An object of records, like a page of connector results. */
export const records = fc.array(
  fc.record(
    { a: scalar, b: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), c: jsonValue },
    { requiredKeys: ['a'] },
  ),
  { maxLength: 5 },
);

/** Bindings the generated expressions read ($x, $s, $o, $arr, $n, $r). */
export const bindings = fc.record({
  x: fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constant(2.5)),
  s: fc.constantFrom('abc', 'a,b,c', '', 'Héllo wörld', '  spaced  out ', 'x1y2'),
  o: jsonValue,
  arr: fc.array(fc.oneof(fc.integer({ min: -3, max: 9 }), fc.constant(1.5)), { maxLength: 5 }),
  n: fc.constant(null),
  r: records,
});

const NUMBER = fc.constantFrom('0', '1', '2', '-1', '3.5', '10', '0.25');
const STRING = fc.constantFrom('"x"', '"ab"', '""', '"a,b"', "'q'", '"B"', '"é"');
const NAME = fc.constantFrom('a', 'b', 'c', '`1`', 'd');
const VARIABLE = fc.constantFrom('$x', '$s', '$o', '$arr', '$n', '$r', '$', '$$', '$missing');
const BINARY = fc.constantFrom('+', '-', '*', '/', '%', '=', '!=', '<', '<=', '>', '>=', '&', 'and', 'or', 'in');

/** Built-ins and the argument shapes worth calling them with (any expression may also stand in). */
const CALLS: readonly (readonly [string, number])[] = [
  ['count', 1],
  ['sum', 1],
  ['max', 1],
  ['min', 1],
  ['average', 1],
  ['string', 1],
  ['number', 1],
  ['boolean', 1],
  ['not', 1],
  ['exists', 1],
  ['keys', 1],
  ['type', 1],
  ['length', 1],
  ['uppercase', 1],
  ['lowercase', 1],
  ['trim', 1],
  ['reverse', 1],
  ['distinct', 1],
  ['spread', 1],
  ['merge', 1],
  ['abs', 1],
  ['floor', 1],
  ['ceil', 1],
  ['round', 1],
  ['sqrt', 1],
  ['base64encode', 1],
  ['encodeUrlComponent', 1],
  ['append', 2],
  ['lookup', 2],
  ['join', 2],
  ['split', 2],
  ['contains', 2],
  ['substringBefore', 2],
  ['substringAfter', 2],
  ['substring', 2],
  ['substring', 3],
  ['pad', 2],
  ['pad', 3],
  ['replace', 3],
  ['power', 2],
  ['round', 2],
  ['zip', 2],
  ['sort', 1],
  ['string', 2],
  ['csv', 1],
  ['csv', 2],
  ['clone', 1],
  ['base64decode', 1],
  ['decodeUrlComponent', 1],
  ['encodeUrl', 1],
  ['decodeUrl', 1],
  ['error', 1],
  ['assert', 2],
  ['fromMillis', 1],
  ['toMillis', 1],
  ['formatBase', 2],
];

/** A JSONata expression over the names of `jsonValue`/`records` and the variables of `bindings`. */
export const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string; step: string }>((tie) => {
  const e = tie('expr');
  const step = tie('step');
  const leaf = fc.oneof(NUMBER, STRING, NAME, VARIABLE, fc.constantFrom('true', 'false', 'null', '[]', '{}'));
  const composite = fc.oneof(
    // paths
    fc.tuple(e, step).map(([a, b]) => `${a}.${b}`),
    fc.tuple(VARIABLE, NAME, NAME).map(([v, a, b]) => `${v}.${a}.${b}`),
    fc.tuple(NAME, NAME).map(([a, b]) => `${a}.${b}`),
    fc.tuple(e).map(([a]) => `${a}.*`),
    fc.tuple(VARIABLE).map(([a]) => `${a}.**`),
    // predicates, [] and order-by, group-by
    fc.tuple(e, fc.constantFrom('0', '1', '-1', '5', '0.5')).map(([a, i]) => `${a}[${i}]`),
    fc.tuple(e, e).map(([a, p]) => `${a}[${p}]`),
    fc.tuple(NAME, NAME, e).map(([a, b, v]) => `${a}[${b} = ${v}]`),
    fc.tuple(e).map(([a]) => `${a}[]`),
    fc.tuple(NAME, NAME).map(([a, b]) => `${a}.${b}[]`),
    fc.tuple(e, e, fc.constantFrom('', '>', '<')).map(([a, k, d]) => `${a}^(${d}${k})`),
    fc.tuple(VARIABLE, NAME, NAME).map(([v, k1, k2]) => `${v}^(>${k1}, ${k2})`),
    fc.tuple(e, e, e).map(([a, k, v]) => `${a}{${k}: ${v}}`),
    fc.tuple(VARIABLE, NAME, NAME).map(([v, k, s]) => `${v}{${k}: $count(${s})}`),
    // constructors
    fc.tuple(e, e).map(([a, b]) => `[${a}, ${b}]`),
    fc.tuple(e, e).map(([a, b]) => `{"k": ${a}, "1": ${b}, "j": ${a}}`),
    fc.tuple(e, e).map(([k, v]) => `{${k}: ${v}}`),
    fc.tuple(VARIABLE, e, e).map(([v, a, b]) => `${v}.{"k": ${a}, "__proto__": ${b}, "2": $}`),
    fc.tuple(VARIABLE, NAME, e).map(([v, n, b]) => `${v}.{"n": ${n}, "s": $string(${n}), "o": {"in": ${b}}}`),
    fc.tuple(e, e).map(([a, b]) => `[${a}].[${b}]`),
    fc.tuple(fc.integer({ min: -2, max: 4 }), fc.integer({ min: -2, max: 6 })).map(([a, b]) => `[${a}..${b}]`),
    // jsonata never ends a range past 2^53 (1e21 + 1 === 1e21): ends come from small numbers only.
    fc
      .tuple(
        fc.constantFrom('$x', '$count($arr)', '-1', '2.5', '"3"'),
        fc.constantFrom('$x', '4', '$count($r)', 'null'),
      )
      .map(([a, b]) => `[${a}..${b}]`),
    // operators
    fc.tuple(e, BINARY, e).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(e).map(([a]) => `-(${a})`),
    fc.tuple(e, e, e).map(([c, t, f]) => `(${c} ? ${t} : ${f})`),
    fc.tuple(e, e).map(([c, t]) => `(${c} ? ${t})`),
    // blocks and bindings
    fc.tuple(e, e).map(([a, b]) => `(${a}; ${b})`),
    fc.tuple(e, e).map(([a, b]) => `($y := ${a}; ${b})`),
    fc.tuple(e, e).map(([a, b]) => `($x := ${a}; $x & ${b})`),
    fc.tuple(e, e, e).map(([c, a, b]) => `(${c} ? ($z := ${a}) : 0; [$z, ${b}])`),
    // built-in calls
    fc
      .tuple(fc.constantFrom(...CALLS), e, e, e)
      .map(([[name, n], a, b, c]) => `$${name}(${[a, b, c].slice(0, n).join(', ')})`),
    fc
      .tuple(e, fc.constantFrom('$string()', '$uppercase()', '$count()', '$keys()', '$number()', '$type()'))
      .map(([a, f]) => `${a}.${f}`),
    // lambdas, calls and ~>
    fc.tuple(e, e).map(([a, b]) => `$map(${a}, function($v, $i){ ${b} })`),
    fc.tuple(e, e).map(([a, b]) => `$filter(${a}, function($v){ ${b} })`),
    fc.tuple(e, e).map(([a, b]) => `$reduce(${a}, function($acc, $v){ ${b} }, 0)`),
    fc.tuple(e).map(([a]) => `$reduce(${a}, function($acc, $v){ $acc + $v })`),
    fc.tuple(e, NAME).map(([a, k]) => `$sort(${a}, function($l, $r){ $l.${k} > $r.${k} })`),
    fc.tuple(e, e).map(([a, b]) => `$each(${a}, function($v, $k){ ${b} })`),
    fc.tuple(e, e).map(([a, b]) => `$single(${a}, function($v){ ${b} })`),
    fc.tuple(e, e).map(([a, b]) => `(function($v){ ${b} })(${a})`),
    fc.tuple(e, e).map(([a, b]) => `($f := function($p, $q){ ${b} }; $f(${a}, $x))`),
    fc.tuple(e).map(([a]) => `(${a} ~> $string())`),
    fc.tuple(e).map(([a]) => `(${a} ~> $count)`),
    fc.tuple(e, e).map(([a, b]) => `(${a} ~> $map(function($v){ ${b} }))`),
    fc.tuple(e).map(([a]) => `(($uppercase ~> $trim)(${a}))`),
    fc.tuple(e).map(([a]) => `$map(${a}, $string)`),
    // recursion (plain and in tail position), built-ins as values, host-style functions
    fc.integer({ min: -1, max: 12 }).map((n) => `($f := function($n){ $n > 0 ? 1 + $f($n - 1) : 0 }; $f(${n}))`),
    fc
      .tuple(fc.integer({ min: -1, max: 30 }), e)
      .map(([n, a]) => `($f := function($n, $acc){ $n > 0 ? $f($n - 1, $append($acc, ${a})) : $acc }; $f(${n}, []))`),
    fc.tuple(e, e).map(([a, b]) => `($g := $string; $map(${a}, function($v){ $g($v) & ${b} }))`),
    fc.tuple(e).map(([a]) => `$sift(${a}, function($v, $k){ $k != "a" })`),
    fc.tuple(e, fc.constantFrom('"#,##0.00"', '"0.0e0"', '"#%"')).map(([a, p]) => `$formatNumber(${a}, ${p})`),
    fc.tuple(e, fc.constantFrom('"w"', '"I"', '"001"')).map(([a, p]) => `$formatInteger(${a}, ${p})`),
    fc
      .tuple(fc.constantFrom('"12"', '"twelve"', '"XII"'), fc.constantFrom('"#0"', '"w"', '"I"'))
      .map(([a, p]) => `$parseInteger(${a}, ${p})`),
    fc
      .tuple(
        fc.integer({ min: 0, max: 2e12 }),
        fc.constantFrom('"[Y0001]-[M01]-[D01]"', '"[H01]:[m01]"', '"[FNn], [D1o] [MNn]"'),
      )
      .map(([ms, p]) => `$fromMillis(${ms}, ${p})`),
    fc.constantFrom(
      '$toMillis("2024-02-29T12:00:00Z")',
      '$toMillis("2024-02-29", "[Y0001]-[M01]-[D01]")',
      '$toMillis("x")',
    ),
    fc.tuple(e).map(([a]) => `$string(${a}, true)`),
    // regexes
    fc.tuple(e).map(([a]) => `$contains(${a}, /a|b/i)`),
    fc.tuple(e).map(([a]) => `$replace(${a}, /(a)(b)?/, "[$1$2]")`),
    fc.tuple(e).map(([a]) => `$split(${a}, /,\\s*/)`),
    fc.tuple(e).map(([a]) => `$match(${a}, /[a-c]/)`),
    fc.tuple(e).map(([a]) => `$replace(${a}, "a", "$0")`),
  );
  return {
    expr: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, composite),
    step: fc.oneof(
      NAME,
      e.map((a) => `(${a})`),
      fc.constantFrom('*', '$', '$string()', '{"v": $}', '[a, b]'),
      fc.tuple(NAME, e).map(([n, p]) => `${n}[${p}]`),
    ),
  };
}).expr;
