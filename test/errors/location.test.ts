import { describe, expect, it } from 'vitest';
import { formatFileLineCol, formatLocation } from '../../src/errors/index.js';
import { formatDiagnostic } from '../../src/source/index.js';

describe('the one location formatter', () => {
  it('writes file:line:col, filling an unknown column with 1 and dropping an unknown line', () => {
    expect(formatFileLineCol({ file: 'r.yaml', line: 3, column: 7, pointer: '/steps/0' })).toBe('r.yaml:3:7');
    expect(formatFileLineCol({ file: 'r.yaml', line: 3 })).toBe('r.yaml:3:1');
    expect(formatFileLineCol({ file: 'r.yaml' })).toBe('r.yaml');
    expect(formatFileLineCol({ line: 3, column: 7 })).toBe('');
    expect(formatFileLineCol(undefined)).toBe('');
  });

  it('is what error prefixes and diagnostics are written with', () => {
    expect(formatLocation({ file: 'r.yaml', line: 3, column: 7 })).toBe('r.yaml:3:7: ');
    expect(formatLocation({})).toBe('');
    const d = { code: 'S001', message: 'bad', file: 'r.yaml', line: 2, column: 5, severity: 'error' as const };
    expect(formatDiagnostic(d)).toBe('r.yaml:2:5: S001 bad');
  });
});
