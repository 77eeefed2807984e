import { describe, expect, it } from 'vitest';
import { autoNext, itemsOf } from '../../src/run/index.js';

describe('autoNext: which key carries the next page', () => {
  const crm = { next_cursor: 'n1', next_link: '/x', has_next_page: true, end_cursor: 'n1' };
  const cases: [
    string,
    Record<string, unknown>,
    unknown,
    Record<string, unknown>,
    ReadonlySet<string> | null | undefined,
    unknown,
  ][] = [
    [
      'context store meta.cursor',
      {},
      { data: [1], meta: { has_more: true, cursor: 'c2' } },
      {},
      undefined,
      { kind: 'next', key: 'cursor', value: 'c2' },
    ],
    [
      'context store has_more false',
      {},
      { data: [1], meta: { has_more: false, cursor: 'c2' } },
      {},
      undefined,
      { kind: 'stop' },
    ],
    [
      'offset from next_offset',
      { limit: 10 },
      [1],
      { has_more: true, next_offset: 10 },
      undefined,
      { kind: 'next', key: 'offset', value: 10 },
    ],
    [
      'offset computed when next_offset is absent',
      { offset: 20 },
      [1, 2],
      { has_more: true },
      undefined,
      { kind: 'next', key: 'offset', value: 22 },
    ],
    ['offset has_more false', { offset: 20 }, [1], { has_more: false, next_offset: 21 }, undefined, { kind: 'stop' }],
    ['CRM list: asks for the action params first', {}, [1], crm, undefined, { kind: 'needs-action-params' }],
    [
      'CRM list: after when the action declares after',
      {},
      [1],
      crm,
      new Set(['after', 'limit']),
      { kind: 'next', key: 'after', value: 'n1' },
    ],
    ['CRM list: after when the service does not say', {}, [1], crm, null, { kind: 'next', key: 'after', value: 'n1' }],
    [
      'next_cursor with an action that takes cursor',
      {},
      [1],
      { next_cursor: 'n1', has_more: true },
      new Set(['cursor']),
      { kind: 'next', key: 'cursor', value: 'n1' },
    ],
    ['request already has after', { after: 'a' }, [1], crm, undefined, { kind: 'next', key: 'after', value: 'n1' }],
    ['last CRM page', {}, [1], { next_cursor: null, has_next_page: false }, undefined, { kind: 'stop' }],
    [
      'cursor/end_cursor, action says nothing',
      {},
      [1],
      { has_next_page: true, end_cursor: 'e' },
      null,
      { kind: 'next', key: 'cursor', value: 'e' },
    ],
    [
      'cursor/end_cursor, action declares only after',
      {},
      [1],
      { has_next_page: true, end_cursor: 'e' },
      new Set(['after']),
      { kind: 'next', key: 'after', value: 'e' },
    ],
    [
      'camelCase hasNextPage/endCursor',
      { cursor: 'x' },
      [1],
      { hasNextPage: true, endCursor: 'e' },
      undefined,
      { kind: 'next', key: 'cursor', value: 'e' },
    ],
    ['no paging metadata', {}, [1], {}, undefined, { kind: 'stop' }],
  ];
  for (const [name, params, result, meta, declared, expected] of cases) {
    it(name, () => {
      const next = autoNext(params, result, meta, Array.isArray(result) ? result.length : 1, declared);
      expect(next).toMatchObject(expected as object);
      if (next.kind === 'next') expect(next.params).toEqual({ ...params, [next.key]: next.value });
    });
  }
});

describe('itemsOf', () => {
  it('takes the result array, data[] or results[]', () => {
    expect(itemsOf([1, 2])).toEqual([1, 2]);
    expect(itemsOf({ data: [3], meta: {} })).toEqual([3]);
    expect(itemsOf({ results: [4], paging: {} })).toEqual([4]);
    expect(itemsOf({ id: '1' })).toBeUndefined();
  });
});
