import { describe, expect, it } from 'vitest';
import { normalizeDate } from '../../../src/service/connectors/crm/dates.js';

describe('normalizeDate', () => {
  it('normalises ISO dates, date-times with offsets and epoch milliseconds to UTC with milliseconds', () => {
    expect(normalizeDate('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(normalizeDate('2026-03-05T10:00:00+01:00')).toBe('2026-03-05T09:00:00.000Z');
    expect(normalizeDate('2026-03-05T10:00Z')).toBe('2026-03-05T10:00:00.000Z');
    expect(normalizeDate('2026-03-05T10:00:00.1234Z')).toBe('2026-03-05T10:00:00.123Z');
    expect(normalizeDate('2026-03-05T10:00:00-0230')).toBe('2026-03-05T12:30:00.000Z');
    expect(normalizeDate(1775001600000)).toBe('2026-04-01T00:00:00.000Z');
    expect(normalizeDate('0')).toBe('1970-01-01T00:00:00.000Z');
  });

  it('rejects impossible and non-ISO dates', () => {
    for (const bad of [
      '2023-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-1-5',
      '05/03/2026',
      'tomorrow',
      '',
      '2026-03-05T25:00:00Z',
      '2026-03-05 10:00:00',
      '9'.repeat(20),
    ]) {
      expect(normalizeDate(bad), bad).toBeNull();
    }
  });
});
