import { expect, it } from 'vitest';
import type { CallEntry, CallOutcome, JournalStore, RunStart, StepEvent } from '../../src/journal/index.js';
import { listRunsPagingContract } from './list-runs-paging-contract.js';

/**
 * What every journal backend must do, whatever it stores in: the one suite each backend's test file runs
 * (test/journal/<backend>-store.test.ts: sqlite-, redis-, postgres-), listRuns' paging included. Each backend adds its own
 * cases for what only it has (process locks and read-only files; leases and fencing).
 */
export interface JournalBackend {
  /**
   * A new, empty journal; `open` may be called again to reach the same journal from another store. It may be
   * async (PostgreSQL connects and migrates as it opens).
   */
  fresh(): { open(): JournalStore | Promise<JournalStore> };
}

export function start(id: string, at = 1_700_000_000_000, recipe = 'notes'): RunStart {
  return {
    run_id: id,
    recipe,
    file: `/r/${recipe}.yaml`,
    files: [{ path: `/r/${recipe}.yaml`, sha256: 'ab' }],
    inputs: { n: 3 },
    started_at: at,
    dry_run: false,
    options: {},
  };
}

export function entry(key: string, write = false): CallEntry {
  return {
    call_key: key,
    step_path: key.split('#')[0] as string,
    file: '/r/notes.yaml',
    line: 3,
    column: 5,
    pointer: '/steps/0',
    kind: 'execute',
    method: 'POST',
    path: '/api/v1/integrations/connectors/1/execute',
    entity: 'notes',
    action: write ? 'create' : 'list',
    write,
    idempotency_key: write ? 'k' : null,
    request: '{"entity":"notes"}',
  };
}

export function outcome(key: string, o: Partial<CallOutcome> = {}): CallOutcome {
  return {
    call_key: key,
    state: 'answered',
    status: 200,
    answer: '{"result":[]}',
    error: null,
    doubt: false,
    redacted: false,
    retries: 0,
    sent_at: 1_700_000_000_100,
    latency_ms: 3,
    settled_by: null,
    ...o,
  };
}

export function stepEvent(status: string, duration: number | null): StepEvent {
  return {
    step_path: 'notes',
    file: '/r/notes.yaml',
    line: 4,
    column: 5,
    pointer: '/steps/1',
    step_id: 'notes',
    kind: 'foreach',
    depth: 0,
    status,
    started_at: 1,
    duration_ms: duration,
    error_code: null,
  };
}

export const end = {
  status: 'ok' as const,
  ended_at: 1_700_000_001_000,
  duration_ms: 1000,
  outputs: { count: 3 },
  error: null,
  report: '{"status":"ok"}',
  failed_call: null,
  requests: 2,
  writes: 1,
  replayed_calls: 0,
};

/** Registers the contract's cases (call inside a describe). */
export function journalStoreContract(backend: JournalBackend): void {
  listRunsPagingContract(() => backend.fresh().open());

  it('records a run, its exchanges in order, and its end; lists it with its counters', async () => {
    const journal = backend.fresh();
    const store = await journal.open();
    const run = await store.begin(start('r1'));
    await run.record(entry('a#0'), outcome('a#0'));
    await run.intend(entry('b#0', true));
    // The intent is durable at once: another store sees it before any flush of later appends.
    const seen = await (await journal.open()).listExchanges('r1');
    expect(seen.map((e) => [e.call_key, e.state])).toEqual([
      ['a#0', 'answered'],
      ['b#0', 'intent'],
    ]);
    await run.finish(end);
    const summary = (await store.listRuns())[0];
    expect(summary).toMatchObject({ run_id: 'r1', status: 'succeeded', requests: 2, writes: 1, attempts: 1 });
    expect((await store.getRun('r1'))?.report).toBe('{"status":"ok"}');
  });

  it('lists runs newest first, filtered by status and recipe, with a limit', async () => {
    const store = await backend.fresh().open();
    for (const [id, at, recipe] of [
      ['old', 1, 'a'],
      ['mid', 2, 'b'],
      ['new', 3, 'a'],
    ] as const) {
      const r = await store.begin(start(id, at, recipe));
      await r.finish({ ...end, status: id === 'mid' ? 'failed' : 'ok' });
    }
    expect((await store.listRuns()).map((r) => r.run_id)).toEqual(['new', 'mid', 'old']);
    expect((await store.listRuns({ recipe: 'a' })).map((r) => r.run_id)).toEqual(['new', 'old']);
    expect((await store.listRuns({ status: 'failed' })).map((r) => r.run_id)).toEqual(['mid']);
    expect((await store.listRuns({ limit: 1 })).map((r) => r.run_id)).toEqual(['new']);
  });

  it('refuses a used run id (J006) and an unknown one on resume (J001)', async () => {
    const store = await backend.fresh().open();
    await (await store.begin(start('x'))).finish(end);
    await expect(store.begin(start('x'))).rejects.toMatchObject({ code: 'J006' });
    await expect(store.resume('nope', { kind: 'resume', started_at: 1, options: {} })).rejects.toMatchObject({
      code: 'J001',
    });
  });

  it('refuses to resume a run this process holds (J003); released, it resumes as attempt 2', async () => {
    const store = await backend.fresh().open();
    const first = await store.begin(start('h'));
    await expect(store.resume('h', { kind: 'resume', started_at: 2, options: {} })).rejects.toMatchObject({
      code: 'J003',
    });
    await first.release();
    expect((await store.getRun('h'))?.status).toBe('interrupted');
    const again = await store.resume('h', { kind: 'resume', started_at: 3, options: {} });
    expect([again.attempt, again.resuming]).toEqual([2, true]);
    await again.finish(end);
    expect((await store.listAttempts('h')).map((a) => [a.attempt, a.kind, a.status])).toEqual([
      [1, 'run', 'interrupted'],
      [2, 'resume', 'succeeded'],
    ]);
  });

  it('finds writes in doubt: intents with no answer, failures that may hide an applied write, masked answers', async () => {
    const store = await backend.fresh().open();
    const run = await store.begin(start('d'));
    const fail = async (key: string, doubt: boolean) =>
      run.record(
        entry(key, true),
        outcome(key, { state: 'failed', status: doubt ? 503 : 400, answer: null, error: '{"code":"C005"}', doubt }),
      );
    await run.intend(entry('w#0', true));
    await fail('x#0', true);
    await fail('y#0', false);
    // An answer that masking a secret changed cannot be replayed as it was: a write's is in doubt, a read's not.
    await run.record(entry('z#0', true), outcome('z#0', { redacted: true }));
    await run.record(entry('r#0', false), outcome('r#0', { redacted: true }));
    await run.release();
    const again = await store.resume('d', { kind: 'resume', started_at: 2, options: {} });
    expect((await store.writesInDoubt('d')).map((e) => e.call_key)).toEqual(['w#0', 'x#0', 'z#0']);
    expect((await again.lookup('y#0'))?.state).toBe('failed');
    expect(await again.lookup('nothing#0')).toBeUndefined();
    // Answered at last: no longer in doubt.
    await again.record(entry('w#0', true), outcome('w#0'));
    await again.flush();
    expect((await store.writesInDoubt('d')).map((e) => e.call_key)).toEqual(['x#0', 'z#0']);
    await again.release();
  });

  it('stores a cancel request its holder sees (from another store too), for the running attempt only', async () => {
    const journal = backend.fresh();
    const store = await journal.open();
    const run = await store.begin(start('c'));
    expect(await run.cancelRequested()).toBeNull();
    const request = await (await journal.open()).requestCancel('c', 'runaway loop', 1_700_000_000_500);
    expect(request).toEqual({ reason: 'runaway loop', requested_at: 1_700_000_000_500, attempt: 1 });
    expect(await run.cancelRequested()).toEqual(request);
    await run.finish({ ...end, status: 'interrupted' });
    expect((await store.getRun('c'))?.status).toBe('cancelled');
    // Not running any more: nothing to cancel (J020); an unknown run is J001.
    await expect(store.requestCancel('c', null, 1)).rejects.toMatchObject({ code: 'J020' });
    await expect(store.requestCancel('nope', null, 1)).rejects.toMatchObject({ code: 'J001' });
    // The resume (attempt 2) is not cancelled by the request made for attempt 1.
    const again = await store.resume('c', { kind: 'resume', started_at: 2, options: {} });
    expect(await again.cancelRequested()).toBeNull();
    await store.requestCancel('c', null, 3);
    expect(await again.cancelRequested()).toMatchObject({ reason: null, attempt: 2 });
    await again.release();
    // Released (interrupted): nobody runs it, nothing to cancel.
    await expect(store.requestCancel('c', null, 4)).rejects.toMatchObject({ code: 'J020' });
  });

  it('prunes ended runs older than the cutoff, never a held one', async () => {
    const store = await backend.fresh().open();
    await (await store.begin(start('gone', 10))).finish({ ...end, ended_at: 20 });
    await (await store.begin(start('kept', 10))).finish({ ...end, ended_at: 5_000 });
    const held = await store.begin(start('live', 10));
    expect(await store.prune(1_000)).toBe(1);
    expect((await store.listRuns()).map((r) => r.run_id).sort()).toEqual(['kept', 'live']);
    await held.release();
  });

  it("drops a run's read answers on request, keeping its writes' answers", async () => {
    const store = await backend.fresh().open();
    const run = await store.begin(start('dr'));
    await run.record(entry('r#0'), outcome('r#0', { answer: '{"result":[{"email":"a@b.c"}]}' }));
    await run.intend(entry('w#0', true));
    await run.record(entry('w#0', true), outcome('w#0', { answer: '{"result":{"id":"1"}}' }));
    await run.finish(end);
    expect(await store.dropReadAnswers('dr')).toBe(1);
    const answers = (await store.listExchanges('dr')).map((e) => [e.call_key, e.answer]);
    expect(answers).toEqual([
      ['r#0', null],
      ['w#0', '{"result":{"id":"1"}}'],
    ]);
    await expect(store.dropReadAnswers('nope')).rejects.toMatchObject({ code: 'J001' });
  });

  it('prunes at most `limit` runs, the oldest first (bounded retention work)', async () => {
    const store = await backend.fresh().open();
    for (const [id, at] of [
      ['p3', 30],
      ['p1', 10],
      ['p2', 20],
    ] as const)
      await (await store.begin(start(id, at))).finish({ ...end, ended_at: at + 1 });
    expect(await store.prune(1_000, 2)).toBe(2);
    expect((await store.listRuns()).map((r) => r.run_id)).toEqual(['p3']);
  });

  it("holds a part of a run beside it: the part's calls join the run's, its counters the run's totals", async () => {
    const store = await backend.fresh().open();
    const run = await store.begin(start('p'));
    await expect(store.holdPart('nope', 'chunk-0')).rejects.toMatchObject({ code: 'J001' });
    const part = await store.holdPart('p', 'chunk-0');
    expect([part.run_id, part.attempt, part.resuming]).toEqual(['p', 1, true]);
    await expect(store.holdPart('p', 'chunk-0')).rejects.toMatchObject({ code: 'J003' });
    const other = await store.holdPart('p', 'chunk-1');
    await other.release();
    await part.intend(entry('items[0].w#0', true));
    await part.record(entry('items[0].w#0', true), outcome('items[0].w#0'));
    part.step({ ...stepEvent('ok', 2), step_path: 'items[0].w', step_id: 'w' });
    part.progress({ requests: 1, writes: 1, replayed_calls: 0 });
    // A part's finish ends the part, not the run; its counters stay.
    await part.finish({ ...end, requests: 1, writes: 1 });
    expect((await store.getRun('p'))?.status).toBe('running');
    // Held again (a chunk that runs again): what the part recorded replays.
    const again = await store.holdPart('p', 'chunk-0');
    expect((await again.lookup('items[0].w#0'))?.state).toBe('answered');
    await again.release();
    await run.record(entry('a#0'), outcome('a#0'));
    await run.finish(end);
    expect(await store.getRun('p')).toMatchObject({ status: 'succeeded', requests: 3, writes: 2, attempts: 1 });
    const calls = await store.listExchanges('p');
    expect(calls.map((c) => [c.call_key, c.attempt])).toEqual([
      ['items[0].w#0', 1],
      ['a#0', 1],
    ]);
    // One order for the run's events, whoever appended them.
    const seqs = [...calls, ...(await store.listSteps('p'))].map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect((await store.listAttempts('p')).map((a) => [a.attempt, a.requests, a.writes])).toEqual([[1, 2, 1]]);
    // Parts gathered into the attempt (a distributed foreach carries its chunks' counters) count once, through it.
    if (store.foldParts) {
      await store.foldParts('p', ['chunk-0', 'chunk-1']);
      expect(await store.getRun('p')).toMatchObject({ requests: 2, writes: 1 });
    }
  });

  it('says how long a dead holder may still hold a run (leaseMs)', async () => {
    expect((await backend.fresh().open()).leaseMs).toBeGreaterThanOrEqual(0);
  });

  it('records step events and effects, readable in append order; follows a run with after_seq', async () => {
    const store = await backend.fresh().open();
    const run = await store.begin(start('s'));
    run.step(stepEvent('running', null));
    run.effect('clock:started_at', 1);
    await run.flush();
    expect((await store.listSteps('s')).map((s) => s.status)).toEqual(['running']);
    run.step(stepEvent('ok', 7));
    await run.flush();
    const steps = await store.listSteps('s');
    expect(steps.map((s) => [s.step_path, s.status, s.duration_ms])).toEqual([['notes', 'ok', 7]]);
    expect(await store.getEffects('s')).toEqual({ 'clock:started_at': 1 });
    expect(await store.listSteps('s', { after_seq: steps[0]?.seq ?? 0 })).toEqual([]);
    await run.intend(entry('n#0', true));
    const calls = await store.listExchanges('s', { after_seq: steps[0]?.seq ?? 0 });
    expect(calls.map((c) => c.call_key)).toEqual(['n#0']);
    await run.release();
  });
}
