// Writes a CRM fixture file of N contacts only (no other records), for the context store search benchmark.
// Deterministic (mulberry32), with enough distinct names that fuzzy/keyword queries are selective the way
// they are in a real CRM (the demo seed has only 26 first and 26 last names).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** @typedef {() => number} Rnd  Uniform in [0, 1). */

/**
 * A seeded PRNG (mulberry32): the same data on every run.
 * @param {number} seed
 * @returns {Rnd}
 */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'ne',
  'to',
  'sa',
  'vi',
  'de',
  'ju',
  'ba',
  'ri',
  'po',
  'le',
  'fa',
  'go',
  'zu',
  'he',
  'an',
  'el',
  'or',
  'is',
  'us',
  'en',
];
const OWNERS = Array.from({ length: 50 }, (_, i) => String(2001 + i));
const DOMAINS = Array.from({ length: 400 }, (_, i) => `co${i}.example`);

/**
 * A name of two or three syllables: 24^2 + 24^3 ≈ 14,400 distinct values.
 * @param {Rnd} rnd
 */
function name(rnd) {
  const n = rnd() < 0.5 ? 2 : 3;
  let s = '';
  for (let i = 0; i < n; i++) s += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** @typedef {ReturnType<typeof contactAt>} Contact */

/**
 * The i-th contact (ids from 1); also used to pick query values that exist.
 * @param {number} i
 * @param {Rnd} rnd  the PRNG that made contacts 1 … i-1 (contacts draw from it in order)
 */
export function contactAt(i, rnd) {
  const first = name(rnd);
  const last = name(rnd);
  const created = new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 730 * 86_400_000)).toISOString();
  return {
    id: String(i),
    properties: {
      email: `${first}.${last}.${i}@${DOMAINS[Math.floor(rnd() * DOMAINS.length)]}`.toLowerCase(),
      firstname: first,
      lastname: last,
      crm_owner_id: OWNERS[Math.floor(rnd() * OWNERS.length)],
    },
    createdAt: created,
  };
}

/**
 * Streams {connectors: [{type: CRM, name, data: {contacts: [...]}}]} as JSON to `file`.
 * @param {string} file
 * @param {number} count
 */
export async function writeContactsFixture(file, count, seed = 42) {
  const out = createWriteStream(file);
  const rnd = prng(seed);
  /** @param {string} s */
  const write = async (s) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await write('{"connectors":[{"type":"CRM","name":"bench contacts","data":{"contacts":[\n');
  for (let i = 1; i <= count; i++) await write(`${i > 1 ? ',\n' : ''}${JSON.stringify(contactAt(i, rnd))}`);
  await write('\n]}}]}\n');
  out.end();
  await once(out, 'finish');
}
