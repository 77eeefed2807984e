import { describe, expect, it } from 'vitest';
import { connectorTypes } from '../../src/service/connectors/registry.js';
import { compileSchema } from '../../src/service/core/params-validator.js';

describe('connector action schemas', () => {
  it('every registered action has a params schema the execute validator compiles', () => {
    let count = 0;
    for (const type of connectorTypes) {
      for (const a of type.actions) {
        expect(() => compileSchema(a.paramsSchema), `${type.definition.slug} ${a.entity} ${a.action}`).not.toThrow();
        count++;
      }
    }
    expect(count).toBeGreaterThan(0);
  });

  it('entity/action pairs are unique within a type', () => {
    for (const type of connectorTypes) {
      const keys = type.actions.map((a) => `${a.entity}.${a.action}`);
      expect(new Set(keys).size, type.definition.slug).toBe(keys.length);
    }
  });
});
