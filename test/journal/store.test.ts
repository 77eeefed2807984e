import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openJournal,
  openJournalReader,
  type CallEntry,
  type JournalStore,
  type RunStart,
} from '../../src/journal/index.js';
import { RecipeError } from '../../src/errors/index.js';

const stores: JournalStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

function open(path: string): JournalStore {
  const s = openJournal(path);
  stores.push(s);
  return s;
}

function start(id: string, at = 1_700_000_000_000, recipe = 'notes'): RunStart {
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

function entry(key: string, write = false): CallEntry {
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

const end = {
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

function tempJournal(): string {
  return join(mkdtempSync(join(tmpdir(), 'recipe-journal-')), 'runs.db');
}

describe('SQLite journal store', () => {
  it('records a run, its exchanges in order, and its end; lists it with its counters', async () => {
    const path = tempJournal();
    const store = open(path);
    const run = await store.begin(start('r1'));
    await run.record(entry('a#0'), {
      call_key: 'a#0',
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
    });
    await run.intend(entry('b#0', true));
    // The intent is durable at once: another connection sees it before any flush of later appends.
    const other = open(path);
    const seen = await other.listExchanges('r1');
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
    const store = open(tempJournal());
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
    const store = open(tempJournal());
    await (await store.begin(start('x'))).finish(end);
    await expect(store.begin(start('x'))).rejects.toMatchObject({ code: 'J006' });
    await expect(store.resume('nope', { kind: 'resume', started_at: 1, options: {} })).rejects.toMatchObject({
      code: 'J001',
    });
  });

  it('shows a run whose process died as interrupted, and lets another process resume it', async () => {
    const path = tempJournal();
    // A child process (dist/, as built by `npm run build`) begins a run and is killed while holding it.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { openJournal } = await import(${JSON.stringify(new URL('../../dist/journal/index.js', import.meta.url).pathname)});
         const s = openJournal(${JSON.stringify(path)});
         await s.begin(${JSON.stringify(start('held'))});
         process.stdout.write('held\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
    const store = open(path);
    expect((await store.getRun('held'))?.status).toBe('running');
    await expect(store.resume('held', { kind: 'resume', started_at: 2, options: {} })).rejects.toMatchObject({
      code: 'J003',
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    expect((await store.getRun('held'))?.status).toBe('interrupted');
    expect((await store.listRuns({ status: 'interrupted' })).map((r) => r.run_id)).toEqual(['held']);
    const again = await store.resume('held', { kind: 'resume', started_at: 3, options: { allow_changed: false } });
    expect(again.attempt).toBe(2);
    expect(again.resuming).toBe(true);
    expect((await store.getRun('held'))?.status).toBe('running');
    await again.finish(end);
    const attempts = await store.listAttempts('held');
    expect(attempts.map((a) => [a.attempt, a.kind, a.status])).toEqual([
      [1, 'run', 'interrupted'],
      [2, 'resume', 'succeeded'],
    ]);
    expect(existsSync(`${path}-locks/held`)).toBe(false);
  });

  it('finds writes in doubt: intents with no answer and failures that may hide an applied write', async () => {
    const store = open(tempJournal());
    const run = await store.begin(start('d'));
    const fail = async (key: string, doubt: boolean) =>
      run.record(entry(key, true), {
        call_key: key,
        state: 'failed',
        status: doubt ? 503 : 400,
        answer: null,
        error: '{"code":"C005"}',
        doubt,
        redacted: false,
        retries: 0,
        sent_at: 1,
        latency_ms: 1,
        settled_by: null,
      });
    await run.intend(entry('w#0', true));
    await fail('x#0', true);
    await fail('y#0', false);
    await run.release();
    const again = await store.resume('d', { kind: 'resume', started_at: 2, options: {} });
    expect((await store.writesInDoubt('d')).map((e) => e.call_key)).toEqual(['w#0', 'x#0']);
    expect((await again.lookup('y#0'))?.state).toBe('failed');
    expect(await again.lookup('nothing#0')).toBeUndefined();
    await again.release();
  });

  it('prunes ended runs older than the cutoff, never a held one', async () => {
    const store = open(tempJournal());
    await (await store.begin(start('gone', 10))).finish({ ...end, ended_at: 20 });
    await (await store.begin(start('kept', 10))).finish({ ...end, ended_at: 5_000 });
    const held = await store.begin(start('live', 10));
    expect(await store.prune(1_000)).toBe(1);
    expect((await store.listRuns()).map((r) => r.run_id).sort()).toEqual(['kept', 'live']);
    await held.release();
  });

  it('records step events and effects, readable in append order', async () => {
    const store = open(':memory:');
    const run = await store.begin(start('s'));
    run.step({
      step_path: 'notes',
      file: '/r/notes.yaml',
      line: 4,
      column: 5,
      pointer: '/steps/1',
      step_id: 'notes',
      kind: 'foreach',
      depth: 0,
      status: 'running',
      started_at: 1,
      duration_ms: null,
      error_code: null,
    });
    run.effect('clock:started_at', 1);
    run.step({
      step_path: 'notes',
      file: '/r/notes.yaml',
      line: 4,
      column: 5,
      pointer: '/steps/1',
      step_id: 'notes',
      kind: 'foreach',
      depth: 0,
      status: 'ok',
      started_at: 1,
      duration_ms: 7,
      error_code: null,
    });
    await run.flush();
    const steps = await store.listSteps('s');
    expect(steps.map((s) => [s.step_path, s.status, s.duration_ms])).toEqual([['notes', 'ok', 7]]);
    expect(await store.getEffects('s')).toEqual({ 'clock:started_at': 1 });
    await run.release();
  });

  it('says why it cannot open a journal (J007)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-journal-'));
    writeFileSync(join(dir, 'a-file'), 'x');
    let err: unknown;
    try {
      openJournal(join(dir, 'a-file', 'runs.db'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecipeError);
    expect((err as RecipeError).code).toBe('J007');
  });

  it('opens read-only for a console: reads, follows a held run, refuses to write (J007)', async () => {
    const path = tempJournal();
    const store = open(path);
    const run = await store.begin(start('live'));
    run.step({
      step_path: 'notes',
      file: '/r/notes.yaml',
      line: 4,
      column: 5,
      pointer: '/steps/1',
      step_id: 'notes',
      kind: 'foreach',
      depth: 0,
      status: 'running',
      started_at: 1,
      duration_ms: null,
      error_code: null,
    });
    await run.flush();
    const reader = openJournalReader(path);
    try {
      expect((await reader.getRun('live'))?.status).toBe('running');
      const seen = await reader.listSteps('live');
      expect(seen.map((e) => e.status)).toEqual(['running']);
      await run.intend(entry('n#0', true));
      expect(await reader.listExchanges('live', { after_seq: seen[0]?.seq ?? 0 })).toHaveLength(1);
      await expect((reader as JournalStore).begin(start('nope'))).rejects.toMatchObject({ code: 'J007' });
    } finally {
      await reader.close();
    }
    await run.release();
    expect(() => openJournalReader(`${path}.missing`)).toThrow(RecipeError);
  });
});
