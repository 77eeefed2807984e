/**
 * A step visit's chance: a small seeded generator (mulberry32, 32-bit state), so that the seed alone, which
 * the journal keeps, gives a resume the same `$random()` draws and `$shuffle()` orders in the same order.
 * Not for secrets or keys: it is predictable by design.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A new seed from the run's source of chance (Math.random unless a test injects one). */
export function newSeed(random: () => number): number {
  return Math.floor(random() * 4294967296) >>> 0;
}
