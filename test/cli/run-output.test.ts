import { describe, expect, it } from 'vitest';
import { formatOutputs, ProgressView } from '../../src/cli/run/run-output.js';
import type { RunEvent, StepProgress } from '../../src/run/index.js';

const step = (over: Partial<StepProgress> = {}): StepProgress => ({
  key: 'k1',
  id: 'deals',
  kind: 'paginate',
  depth: 0,
  records: 0,
  done: 0,
  total: null,
  requests: 0,
  retries: 0,
  ...over,
});

function drive(animate: boolean, color: boolean, events: RunEvent[], logs: [string, string][] = []): string {
  let out = '';
  const view = new ProgressView({ animate, color, quiet: false, verbose: false, write: (t) => (out += t) });
  for (const e of events) view.onEvent(e);
  for (const [level, m] of logs) view.log(level, m);
  view.finish();
  return out;
}

describe('ProgressView', () => {
  const events: RunEvent[] = [
    { type: 'step-start', step: step() },
    { type: 'step-progress', step: step({ records: 100, requests: 1 }) },
    { type: 'step-end', step: step({ records: 250, requests: 3, retries: 1 }), status: 'ok' },
    { type: 'step-start', step: step({ key: 'k2', id: 'each', kind: 'foreach', total: 4, depth: 1 }) },
  ];

  it('plain mode: one line per finished top-level step, no escape codes', () => {
    const out = drive(false, false, events);
    expect(out).toMatch(/^✓ deals \(paginate\) {2}250 records · 3 requests · 1 retry · \d+ ms\n$/);
  });

  it('terminal mode: redraws the running step in place and prints it once when done', () => {
    const out = drive(true, true, events);
    expect(out).toContain('\x1b[1A\x1b[J');
    expect(out).toContain('\x1b[32m✓\x1b[0m deals (paginate)  250 records');
  });

  it('warnings and log lines go above the block; debug only with --verbose', () => {
    const out = drive(
      false,
      false,
      [],
      [
        ['info', 'hello'],
        ['warn', 'careful'],
        ['debug', 'hidden'],
      ],
    );
    expect(out).toBe('hello\nwarning: careful\n');
  });
});

describe('formatOutputs', () => {
  it('prints scalars inline, flat record lists as aligned tables, the rest as JSON', () => {
    const text = formatOutputs({
      n: 3,
      name: 'x',
      rows: [
        { stage: 'a', deals: 10 },
        { stage: 'bbb', deals: 2 },
      ],
      nested: { a: [1] },
      none: undefined,
    });
    expect(text).toBe(
      [
        'n: 3',
        'name: x',
        'rows:',
        '  stage  deals',
        '  -----  -----',
        '  a         10',
        '  bbb        2',
        'nested:',
        '  {',
        '    "a": [',
        '      1',
        '    ]',
        '  }',
        'none: (nothing)',
        '',
      ].join('\n'),
    );
  });
});
