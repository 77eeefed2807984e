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

  it('stops a case at its timeout_ms and says so', async () => {
    const dir = copyRecipes();
    const file = write(
      dir,
      'slow.test.yaml',
      'recipe: company-rollup.yaml\nfixtures: crm-small.fixtures.yaml\ncases:\n  - name: too slow\n    timeout_ms: 1\n',
    );
    const run = await runTests({ paths: [file] });
    expect(run.results[0]?.failures).toEqual([
      expect.objectContaining({
        what: 'status',
        message: expect.stringContaining('ran longer than its timeout_ms (1 ms)'),
      }),
    ]);
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

describe('runTests coverage', () => {
  it('counts steps ran, only skipped by when, never reached, and on_error: continue branches taken', async () => {
    const dir = copyRecipes();
    write(
      dir,
      'branches.yaml',
      `version: 1
name: branches
inputs:
  mode: { type: string, default: ok }
steps:
  - id: shaky
    on_error: continue
    assert: "\${ $inputs.mode != 'continue' }"
  - id: never_here
    when: "\${ $inputs.mode = 'nope' }"
    log: skipped every time
  - when: "\${ $inputs.mode = 'fail' }"
    fail: stopped on purpose
  - id: last
    set: { done: true }
outputs:
  done: "\${ $done }"
`,
    );
    const file = write(
      dir,
      'branches.test.yaml',
      `recipe: branches.yaml
cases:
  - name: continues past the failed assert
    inputs: { mode: continue }
    expect: { outputs: { done: true } }
  - name: fails before the end
    inputs: { mode: fail }
    expect: { status: failed, error: X003 }
`,
    );
    const run = await runTests({ paths: [file], coverage: true });
    expect(run.results.map((r) => r.status)).toEqual(['passed', 'passed']);
    const cov = run.coverage?.find((c) => c.recipe.endsWith('branches.yaml'));
    expect(cov?.steps.map((s) => [s.id, s.state, s.continue_taken])).toEqual([
      ['shaky', 'ran', true],
      ['never_here', 'skipped', undefined],
      ['fail@12', 'ran', undefined],
      ['last', 'ran', undefined],
    ]);
    expect(cov).toMatchObject({ ran: 3, total: 4, percent: 75 });

    // Only the failing case: the step after the failure is never reached, the continue branch never taken.
    const only = await runTests({ paths: [file], coverage: true, filter: 'fails before' });
    const steps = only.coverage?.find((c) => c.recipe.endsWith('branches.yaml'))?.steps ?? [];
    expect(steps.map((s) => [s.id, s.state, s.continue_taken])).toEqual([
      ['shaky', 'ran', false],
      ['never_here', 'skipped', undefined],
      ['fail@12', 'ran', undefined],
      ['last', 'not_reached', undefined],
    ]);
  });
});

describe('runTests data', () => {
  it('reports fixture data the service refuses as T003 at the fixtures line, and runs none of the file', async () => {
    const dir = copyRecipes();
    write(
      dir,
      'bad.fixtures.yaml',
      'connectors:\n  - type: CRM\n    data:\n      contacts:\n        - { properties: { email: not-an-email } }\n',
    );
    const file = write(
      dir,
      'bad-data.test.yaml',
      'recipe: pipeline-report.yaml\nfixtures: bad.fixtures.yaml\ncases:\n  - name: never runs\n',
    );
    const run = await runTests({ paths: [file] });
    expect(run.results).toEqual([]);
    expect(run.diagnostics).toEqual([
      expect.objectContaining({
        code: 'T003',
        line: 2,
        column: 11,
        message: expect.stringContaining('bad.fixtures.yaml'),
      }),
    ]);
    expect(run.diagnostics[0]?.message).toMatch(/contacts.*email/);
  });
});
