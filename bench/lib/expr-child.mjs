// Figure 7, run in its own process (node --expose-gc): one expression reshaping `count` records (shaped like
// the demo CRM's contacts), evaluated by the compiled engine (dist/: the expression parsed and compiled once,
// as a recipe's are), by the same function written by hand in JavaScript, and by jsonata itself; the sides
// alternate, with a full GC before each evaluation, and the median wall time of each is printed as JSON,
// with the first (cold) evaluation of the compiled form and of the function by hand.
import { performance } from 'node:perf_hooks';
import jsonata from 'jsonata';
import { parseExpr } from '../../dist/expr/index.js';

const count = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 7);
const jsonataRuns = Number(process.argv[4] ?? 3);

/** The transform of bench/recipes/page-contacts.yaml. */
export const EXPRESSION =
  "$contacts.{ 'id': id, 'email': $lowercase(properties.email), 'name': properties.firstname & ' ' & properties.lastname }";

/**
 * The same reshaping, written by hand.
 * @param {{ id: string, properties: Record<string, string | undefined> }[]} contacts
 */
const byHand = (contacts) =>
  contacts.map((c) => ({
    id: c.id,
    email: c.properties.email?.toLowerCase(),
    name: `${c.properties.firstname} ${c.properties.lastname}`,
  }));

const contacts = Array.from({ length: count }, (_, i) => ({
  id: String(100000 + i),
  properties: {
    email: `Person.${i}@Example${i % 400}.com`,
    firstname: `First${i % 14000}`,
    lastname: `Last${(i * 7) % 14000}`,
    company: `Company ${i % 500}`,
    phone: `+1 555 ${String(i).padStart(7, '0')}`,
    lifecyclestage: ['lead', 'customer', 'opportunity'][i % 3],
    createdate: new Date(1_700_000_000_000 + i * 60_000).toISOString(),
  },
  createdAt: new Date(1_700_000_000_000 + i * 60_000).toISOString(),
  archived: false,
}));
const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);

/**
 * Wall time of one evaluation, after a full GC.
 * @param {() => unknown} f
 */
async function once(f) {
  gc?.();
  const t0 = performance.now();
  const result = await f();
  const ms = performance.now() - t0;
  if (!Array.isArray(result) || result.length !== count) throw new Error('unexpected result');
  return ms;
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const compiledMs = [];
const handMs = [];
const jsonataMs = [];
const bound = { contacts };
const parsed = jsonata(EXPRESSION);
const loc = { file: 'bench', line: 1, column: 1, pointer: '' };
const made = parseExpr(EXPRESSION, loc, () => loc);
if (!('expr' in made)) throw new Error('the expression does not parse');
const compiled = made.expr;
// The first evaluation of each is cold (the compiled form is made then, and V8 has not optimized either).
const coldCompiledMs = await once(() => compiled.evaluate(bound));
const coldHandMs = await once(() => byHand(contacts));
for (let i = 0; i < runs; i++) {
  compiledMs.push(await once(() => compiled.evaluate(bound)));
  handMs.push(await once(() => byHand(contacts)));
  if (i < jsonataRuns) jsonataMs.push(await once(() => parsed.evaluate(undefined, bound)));
}
process.stdout.write(
  `${JSON.stringify({ compiledMs: median(compiledMs), handMs: median(handMs), jsonataMs: median(jsonataMs), coldCompiledMs, coldHandMs, all: { compiledMs, handMs, jsonataMs } })}\n`,
);
