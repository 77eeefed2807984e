import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTests } from '../../src/test-runner/index.js';
import { copyRecipes } from './helpers.js';

/** The runner as a library, in this process, on test files written here against the shipped recipes. */
function write(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('runTests', () => {
  it('matches writes in any order, follows mock sequences and params, skips, and skips cases after a failure', async () => {
    const dir = copyRecipes();
    const file = write(
      dir,
      'extra.test.yaml',
      `recipe: ticket-triage.yaml
fixtures: crm-small.fixtures.yaml
now: "2026-03-01T09:00:00Z"
cases:
  - name: any order
    expect:
      writes_order: any
      writes:
        - { entity: notes, action: create, params: { properties: { hs_timestamp: "\${ $actual = $case.now }" } } }
        - { entity: tickets, action: update }
  - name: a mock that matches on params, answering in turn
    mock:
      - { entity: tickets, action: list, params: { limit: 5 }, respond: { status: 500 } }
      - entity: tickets
        action: list
        params: { limit: "\${ $actual = 100 }" }
        respond:
          - { status: 503 }
          - result: [{ id: "701", properties: { subject: Checkout broken, hs_ticket_priority: HIGH, hs_pipeline_stage: "1", crm_owner_id: null } }]
    expect:
      outputs: { triaged: 1 }
      requests: { count: 4 }
  - name: too many requests
    expect:
      requests: { max: 2 }
  - name: later
    skip: not today
  - name: wrong on purpose
    expect: { outputs: { triaged: 5 } }
  - name: after the wrong one
    after: wrong on purpose
`,
    );
    const run = await runTests({ paths: [file] });
    expect(run.diagnostics).toEqual([]);
    const by = Object.fromEntries(run.results.map((r) => [r.name, r]));
    expect(by['any order']?.failures).toEqual([]);
    expect(by['any order']?.status).toBe('passed');
    expect(by['a mock that matches on params, answering in turn']?.status).toBe('passed');
    expect(by['too many requests']?.failures).toEqual([
      expect.objectContaining({ what: 'expect.requests', message: 'expected at most 2 requests, the run sent 3' }),
    ]);
    expect(by.later).toMatchObject({ status: 'skipped', skipReason: 'not today' });
    expect(by['wrong on purpose']?.failures).toEqual([
      expect.objectContaining({
        what: 'expect.outputs.triaged',
        expected: 5,
        actual: 1,
        at: expect.objectContaining({ line: 29, pointer: '/cases/4/expect/outputs/triaged' }),
      }),
    ]);
    expect(by['after the wrong one']).toMatchObject({
      status: 'skipped',
      skipReason: 'after: "wrong on purpose" did not pass',
    });
  });

  it('an expected failure that does not happen is reported once, with the status', async () => {
    const dir = copyRecipes();
    const file = write(
      dir,
      'status.test.yaml',
      `recipe: pipeline-report.yaml
fixtures: crm-small.fixtures.yaml
cases:
  - name: should have failed
    expect: { error: C005, outputs: { open_deals: 99 } }
`,
    );
    const run = await runTests({ paths: [file] });
    expect(run.results[0]?.failures).toEqual([
      expect.objectContaining({ what: 'status', expected: 'failed', actual: 'succeeded' }),
    ]);
  });
});
