import { describe, expect, it } from 'vitest';
import { ActionFacts } from '../../src/client/action-facts.js';
import { isSafeToRepeat, writes } from '../../src/client/index.js';

describe('which actions write (one definition)', () => {
  it("takes the service's word, else the name rule", () => {
    expect(writes(false, 'contacts', 'create')).toBe(false);
    expect(writes(true, 'contacts', 'list')).toBe(true);
    expect(writes(undefined, 'contacts', 'create')).toBe(true);
    expect(writes(undefined, 'contacts', 'list')).toBe(false);
    // Anything but a boolean is no word (an OpenAPI variant's x-write as it came).
    expect(writes('yes', 'contacts', 'api_search')).toBe(false);
    // Unknown action names are writes: the safe side.
    expect(writes(undefined, 'contacts', 'export')).toBe(true);
  });

  it('knows no entity names: the name rule answers the same for every entity', () => {
    for (const action of ['create', 'delete', 'update', 'list', 'get', 'export'])
      expect(writes(undefined, 'associations', action)).toBe(writes(undefined, 'contacts', action));
    expect(isSafeToRepeat('associations', 'create')).toBe(false);
    expect(isSafeToRepeat('associations', 'list')).toBe(true);
  });

  it("learns writes and idempotent writes per connector from inspect's actions[]", () => {
    const facts = new ActionFacts();
    facts.learn('c1', {
      actions: [
        { entity: 'associations', action: 'create', write: true, idempotent: true },
        { entity: 'contacts', action: 'create', write: true },
        { entity: 'contacts', action: 'merge', write: false },
      ],
    });
    expect(facts.knows('c1')).toBe(true);
    expect(facts.writes('c1', 'contacts', 'merge')).toBe(false);
    expect(facts.safeToRepeat('c1', 'associations', 'create')).toBe(true);
    expect(facts.safeToRepeat('c1', 'contacts', 'create')).toBe(false);
    expect(facts.safeToRepeat('c1', 'contacts', 'merge')).toBe(true);
    // Another connector, not inspected: the name rule, and no write is safe to repeat.
    expect(facts.knows('c2')).toBe(false);
    expect(facts.safeToRepeat('c2', 'associations', 'create')).toBe(false);
    // An answer that says nothing of writes teaches nothing.
    facts.learn('c3', { actions: [{ entity: 'x', action: 'y' }] });
    expect(facts.knows('c3')).toBe(false);
  });
});
