import { describe, expect, it } from 'vitest';
import { spliceMembers } from '../../src/source/index.js';

describe('spliceMembers', () => {
  const text = `# head comment
cases:
  - name: a # keep me
    expect:
      status: failed   # old
      error: X003
  - name: b
    expect: { writes: [] }
`;

  it('replaces, adds and removes members of block maps, and leaves every other byte', () => {
    const out = spliceMembers(text, [
      { parent: ['cases', 0, 'expect'], key: 'status', value: 'succeeded' },
      { parent: ['cases', 0, 'expect'], key: 'error', value: undefined },
      { parent: ['cases', 0, 'expect'], key: 'outputs', value: { n: 1, when: '2026-03-01' } },
    ]);
    expect(out).toBe(`# head comment
cases:
  - name: a # keep me
    expect:
      status: succeeded   # old
      outputs:
        "n": 1
        when: "2026-03-01"
  - name: b
    expect: { writes: [] }
`);
  });

  it('rewrites a flow map that gets a member in block form, and adds a map where there was none', () => {
    const out = spliceMembers(text, [
      { parent: ['cases', 1, 'expect'], key: 'outputs', value: { n: 2 } },
      { parent: ['cases', 1], key: 'snapshot', value: true },
    ]);
    expect(out).toContain(`  - name: b
    expect:
      writes: []
      outputs:
        "n": 2
    snapshot: true
`);
  });
});
