import { describe, expect, it } from 'vitest';
import { fleetStoreFrom, requireFleetStore } from '../../src/fleet/fleet-store.js';
import { journalSchemaOf } from '../../src/fleet/postgres-journal.js';

describe("the fleet's store, from the flags and the environment", () => {
  const pg = 'postgres://recipe:pw@127.0.0.1:5432/recipe';
  const redis = 'redis://127.0.0.1:6379';

  it('a flag wins over the environment; --redis is Redis, --postgres PostgreSQL', () => {
    expect(fleetStoreFrom({ postgres: pg }, { RECIPE_REDIS_URL: redis })).toEqual({ kind: 'postgres', url: pg });
    expect(fleetStoreFrom({ redis }, { RECIPE_POSTGRES_URL: pg })).toEqual({ kind: 'redis', url: redis });
    expect(fleetStoreFrom({}, { RECIPE_POSTGRES_URL: pg })).toEqual({ kind: 'postgres', url: pg });
    expect(fleetStoreFrom({}, {})).toBeUndefined();
  });

  it('both named is F009; none where one is needed is F006; a URL of the other kind is F006, password hidden', () => {
    expect(() => fleetStoreFrom({ redis, postgres: pg }, {})).toThrow(expect.objectContaining({ code: 'F009' }));
    expect(() => fleetStoreFrom({}, { RECIPE_REDIS_URL: redis, RECIPE_POSTGRES_URL: pg })).toThrow(
      expect.objectContaining({ code: 'F009' }),
    );
    expect(() => requireFleetStore({}, {})).toThrow(expect.objectContaining({ code: 'F006' }));
    let message = '';
    try {
      fleetStoreFrom({ postgres: 'redis://u:secret-pw@h:1' }, {});
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('--postgres');
    expect(message).not.toContain('secret-pw');
  });

  it("each queue's journal has a schema of its own; names that differ only in case or punctuation never share", () => {
    expect(journalSchemaOf('recipe-runs')).toBe('recipe_journal');
    expect(journalSchemaOf('nightly')).toBe('recipe_journal_nightly');
    const a = journalSchemaOf('a.b');
    const b = journalSchemaOf('a_b');
    const c = journalSchemaOf('A_b');
    expect(new Set([a, b, c]).size).toBe(3);
    for (const s of [a, b, c, journalSchemaOf('x'.repeat(100))]) expect(s).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
  });
});
