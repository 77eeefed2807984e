import { describe, expect, it } from 'vitest';
import { NeedleFinder } from '../../src/client/needle-finder.js';
import { Redactor } from '../../src/client/redact.js';

/** A small seeded generator (mulberry32), so that a failure names a case that can be run again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A string of `length` characters of `alphabet`. */
function text(next: () => number, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

// Few letters (so that needles and texts share blocks often), and characters outside ASCII whose two-character
// hashes collide with others' (ā is 0x101: its hash overlaps those of ASCII pairs).
const ALPHABETS = ['ab', 'abc', 'abcdefgh', 'aāb\u4e2dc', 'ABCxyz-_=+/'];

describe('NeedleFinder', () => {
  it('finds a needle wherever it is, as a search per needle does (seeded random cases)', () => {
    let found = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const alphabet = ALPHABETS[seed % ALPHABETS.length] as string;
      const needles = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
        text(next, alphabet, 1 + Math.floor(next() * 24)),
      );
      let haystack = text(next, alphabet, Math.floor(next() * 120));
      // Half the cases plant a needle: at the start, at the end, or inside.
      if (next() < 0.5) {
        const needle = needles[Math.floor(next() * needles.length)] as string;
        const at = [0, haystack.length, Math.floor(next() * haystack.length)][Math.floor(next() * 3)] as number;
        haystack = haystack.slice(0, at) + needle + haystack.slice(at);
      }
      const expected = needles.some((n) => haystack.includes(n));
      if (expected) found++;
      expect(new NeedleFinder(needles).foundIn(haystack), `seed ${seed}`).toBe(expected);
    }
    // Both answers were exercised, many times.
    expect(found).toBeGreaterThan(1000);
    expect(found).toBeLessThan(2900);
  });

  it('finds a long needle after a long jump, and nothing in a text shorter than the shortest needle', () => {
    const secret = 'tMrjlmbUEykTEvp5sWn7-xVHumoAflyhCV0jvOe_IIM';
    const finder = new NeedleFinder([secret, secret.toUpperCase(), `${secret}-and-more-of-it`]);
    const filler = '{"id":"20001","properties":{"email":"noah.lopez@example.com"}},'.repeat(500);
    expect(finder.foundIn(filler)).toBe(false);
    expect(finder.foundIn(`${filler}${secret}`)).toBe(true);
    expect(finder.foundIn(`${secret.toUpperCase()}${filler}`)).toBe(true);
    expect(finder.foundIn(`${filler}${secret.slice(0, -1)}`)).toBe(false);
    expect(finder.foundIn(secret.slice(1))).toBe(false);
    expect(finder.foundIn('')).toBe(false);
  });

  it('finds short needles too, and nothing without needles', () => {
    expect(new NeedleFinder(['abc', 'a much longer needle']).foundIn('xxabcxx')).toBe(true);
    expect(new NeedleFinder(['abc', 'a much longer needle']).foundIn('xx a much longer needle')).toBe(true);
    expect(new NeedleFinder(['abc', 'a much longer needle']).foundIn('ab c a much longer needl')).toBe(false);
    expect(new NeedleFinder([]).foundIn('anything')).toBe(false);
  });

  it('lets the redactor mask a secret added after its first search', () => {
    const redactor = new Redactor(['first-secret']);
    const page = `${'x'.repeat(40_000)}second-secret${'y'.repeat(100)}first-secret`;
    expect(redactor.redact(page)).toBe(`${'x'.repeat(40_000)}second-secret${'y'.repeat(100)}***`);
    redactor.add('second-secret');
    expect(redactor.redact(page)).toBe(`${'x'.repeat(40_000)}***${'y'.repeat(100)}***`);
  });
});
