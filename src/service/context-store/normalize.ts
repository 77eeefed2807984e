import type { Cond } from './filter-ast.js';

type Bound = { op: 'gt' | 'gte' | 'lt' | 'lte'; value: string | number };

/**
 * Merges range comparisons on the same field (and the same value type) inside one AND into a single
 * range condition, so {gte: {d: a}, lt: {d: b}} reads one index range instead of two half-tables.
 * Semantics are unchanged: a value is in the range when every bound holds.
 */
export function normalizeFilter(cond: Cond): Cond {
  switch (cond.kind) {
    case 'and': {
      const items = cond.items.map(normalizeFilter);
      const groups = new Map<string, Bound[]>();
      const rest: Cond[] = [];
      for (const c of items) {
        if (
          c.kind === 'compare' &&
          c.op !== 'eq' &&
          c.op !== 'neq' &&
          (typeof c.value === 'string' || typeof c.value === 'number')
        ) {
          const key = `${typeof c.value}\u0000${c.field}`;
          groups.set(key, [...(groups.get(key) ?? []), { op: c.op, value: c.value }]);
        } else {
          rest.push(c);
        }
      }
      const merged: Cond[] = [...groups.entries()].map(([key, bounds]) => {
        const field = key.slice(key.indexOf('\u0000') + 1);
        const only = bounds[0] as Bound;
        return bounds.length === 1
          ? { kind: 'compare', op: only.op, field, value: only.value }
          : { kind: 'range', field, bounds };
      });
      const all = [...merged, ...rest];
      return all.length === 1 ? (all[0] as Cond) : { kind: 'and', items: all };
    }
    case 'or':
      return { kind: 'or', items: cond.items.map(normalizeFilter) };
    case 'not':
      return { kind: 'not', item: normalizeFilter(cond.item) };
    case 'any':
      return { kind: 'any', field: cond.field, cond: normalizeFilter(cond.cond) };
    default:
      return cond;
  }
}
