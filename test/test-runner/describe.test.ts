import { describe, expect, it } from 'vitest';
import { diffLines, failureLines } from '../../src/test-runner/reporters/describe.js';

describe('failure text', () => {
  it('diffs lists and maps line by line, expected (-) before actual (+)', () => {
    expect(diffLines(['[', '  1,', '  2', ']'], ['[', '  1,', '  3,', '  4', ']'])).toEqual([
      '  [',
      '    1,',
      '-   2',
      '+   3,',
      '+   4',
      '  ]',
    ]);
  });

  it('shows scalars as expected and actual, and names the place', () => {
    const at = { file: 'a.test.yaml', line: 3, column: 9, pointer: '/cases/0/expect/outputs/n' };
    expect(failureLines({ what: 'expect.outputs.n', at, expected: 3, actual: undefined })).toEqual([
      'expect.outputs.n at a.test.yaml:3:9',
      '  - expected: 3',
      '  + actual:   nothing (missing)',
    ]);
  });
});
