import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestsPage, RunsPage, RunView, StepView } from '../../src/console/run-api-types.js';
import type { JournalReader } from '../../src/journal/index.js';
import { buildConsoleApp, journalFileSource } from '../../src/console/server.js';
import { makeJournal, SECRET, type MadeRuns } from './make-journal.js';

/**
 * The runs API over a journal made by real runs of the CLI (a success, a dry run, a failure with a
 * loop, resumed once): what the runs list and a run's page are built from.
 */
let dir: string;
let runs: MadeRuns;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recipe-console-runs-'));
  runs = await makeJournal(dir);
  app = await buildConsoleApp({
    cwd: dir,
    recipeFolders: ['recipes'],
    journal: journalFileSource(join(dir, '.recipe/runs.db')),
    version: 'test',
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get<T>(url: string, status = 200): Promise<T> {
  const res = await app.inject({ url, headers: { host: '127.0.0.1' } });
  expect(res.statusCode, res.body).toBe(status);
  expect(res.body).not.toContain(SECRET);
  return res.json<T>();
}

function find(steps: readonly StepView[], label: string): StepView | undefined {
  for (const s of steps) {
    if (s.label === label) return s;
    const inner = find(s.children, label);
    if (inner) return inner;
  }
  return undefined;
}

describe('GET /api/runs', () => {
  it('lists runs newest first with status, recipe, requests and writes', async () => {
    const page = await get<RunsPage>('/api/runs');
    expect(page.runs.map((r) => r.run_id)).toEqual([runs.failed, runs.dryRun, runs.triage]);
    expect(page.runs.map((r) => [r.recipe, r.status, r.dry_run])).toEqual([
      ['contact-notes', 'failed', false],
      ['stale-deals-follow-up', 'succeeded', true],
      ['ticket-triage', 'succeeded', false],
    ]);
    expect(page.runs[2]).toMatchObject({ requests: 3, writes: 2, attempts: 1 });
    expect(page.runs[0]?.attempts).toBe(2);
    expect(page.next).toBeNull();
  });

  it('filters by status and by recipe', async () => {
    expect((await get<RunsPage>('/api/runs?status=failed')).runs.map((r) => r.run_id)).toEqual([runs.failed]);
    expect((await get<RunsPage>('/api/runs?recipe=ticket-triage')).runs.map((r) => r.run_id)).toEqual([runs.triage]);
    expect((await get<RunsPage>('/api/runs?status=running')).runs).toEqual([]);
  });

  it('pages with the cursor it gives, each run once', async () => {
    const seen: string[] = [];
    let next: string | null = '';
    while (next !== null) {
      const page: RunsPage = await get<RunsPage>(`/api/runs?limit=1${next ? `&before=${next}` : ''}`);
      seen.push(...page.runs.map((r) => r.run_id));
      next = page.next;
    }
    expect(seen).toEqual([runs.failed, runs.dryRun, runs.triage]);
  });

  it('answers 400 to a bad status, limit or cursor', async () => {
    for (const q of ['status=done', 'limit=0', 'limit=x', 'before=bm90LWEtY3Vyc29y'])
      expect((await get<{ error_code: string }>(`/api/runs?${q}`, 400)).error_code).toBe('invalid_request');
  });
});

describe('GET /api/runs/:id', () => {
  it('shows a failed run: its error and failing line, its resume, its loop, inputs with the secret masked', async () => {
    const v = await get<RunView>(`/api/runs/${runs.failed}`);
    expect(v.run.error).toMatchObject({ code: 'C005', line: 34 });
    expect(v.run.error?.message).toContain('999999');
    expect(v.run.inputs).toEqual({ label: 'weekly', requester: '***' });
    expect(v.source).toMatchObject({ file: 'recipes/contact-notes.yaml', line: 34, changed: false });
    expect(v.source?.text.split('\n')[33]).toContain('- id: deal');
    expect(v.attempts.map((a) => [a.kind, a.status])).toEqual([
      ['run', 'failed'],
      ['redrive', 'failed'],
    ]);
    expect(v.steps.map((s) => s.label)).toEqual(['contacts', 'notes', 'log@31', 'summary', 'deal']);
    const notes = find(v.steps, 'notes');
    expect(notes?.iterations?.total).toBe(3);
    expect(notes?.children.map((c) => [c.label, c.visits, c.requests, c.failures])).toEqual([
      ['note', 3, 3, 0],
      ['owner_deal', 3, 3, 3],
    ]);
    expect(notes?.status).toBe('continued');
    expect(find(v.steps, 'deal')).toMatchObject({ status: 'failed', error_code: 'C005', line: 34 });
    expect(find(v.steps, 'deal')?.bars.map((b) => b.attempt)).toEqual([1, 2]);
    // One record per call: the redrive's answer to `deal` replaces the run's.
    expect(v.totals).toMatchObject({ writes: 3, dry_run_writes: 0, failed: 4 });
  });

  it('shows a dry run’s writes as not sent', async () => {
    const v = await get<RunView>(`/api/runs/${runs.dryRun}`);
    expect(v.run.dry_run).toBe(true);
    expect(v.totals).toMatchObject({ writes: 0, dry_run_writes: 3 });
    expect(v.run.outputs).toMatchObject({ tasks_created: 3 });
  });

  it('answers 404 for an unknown run and 400 for a malformed id', async () => {
    expect((await get<{ error_code: string }>('/api/runs/nope123', 404)).error_code).toBe('not_found');
    expect((await get<{ error_code: string }>('/api/runs/%2E%2E%2Fx', 400)).error_code).toBe('invalid_request');
  });
});

describe('input from outside', () => {
  it('never gets a 500: odd queries and ids are 400 or 404', async () => {
    const urls = [
      '/api/runs?limit=1e9',
      '/api/runs?limit=-1',
      '/api/runs?before=%00',
      `/api/runs?before=${'A'.repeat(3000)}`,
      `/api/runs?recipe=${'x'.repeat(2000)}`,
      '/api/runs?status=running&status=failed',
      '/api/runs/%F0%9F%92%A5',
      `/api/runs/${'a'.repeat(200)}`,
      `/api/runs/${runs.failed}/requests?after_seq=abc`,
      `/api/runs/${runs.failed}/requests?limit=100000`,
      `/api/runs/${runs.failed}/requests?writes_only=maybe`,
      '/api/runs/nope123/requests',
      '/api/runs/nope123/live',
    ];
    for (const url of urls) {
      const res = await app.inject({ url, headers: { host: '127.0.0.1' } });
      expect([400, 404], `${url}: ${res.body}`).toContain(res.statusCode);
      expect(Object.keys(res.json<object>()).sort()).toEqual(['error_code', 'message']);
    }
  });
});

describe('GET /api/runs/:id/requests and /live', () => {
  it('pages requests in journal order; writes only on request', async () => {
    const all: string[] = [];
    let after = 0;
    for (;;) {
      const page = await get<RequestsPage>(`/api/runs/${runs.failed}/requests?limit=4&after_seq=${after}`);
      all.push(...page.requests.map((r) => r.call_key));
      if (page.next === null) break;
      after = page.next;
    }
    expect(all).toHaveLength(11);
    expect(new Set(all).size).toBe(11);
    const writes = await get<RequestsPage>(`/api/runs/${runs.failed}/requests?writes_only=true`);
    expect(writes.requests.map((r) => [r.entity, r.action, r.state, r.status])).toEqual([
      ['notes', 'create', 'answered', 200],
      ['notes', 'create', 'answered', 200],
      ['notes', 'create', 'answered', 200],
    ]);
    const failed = (await get<RequestsPage>(`/api/runs/${runs.failed}/requests?limit=100`)).requests.filter(
      (r) => r.state === 'failed',
    );
    expect(failed.map((r) => [r.step_path, r.status, r.error?.code])).toContainEqual(['deal', 404, 'C005']);
  });

  it('streams a finished run as one view event, then end', async () => {
    const res = await app.inject({ url: `/api/runs/${runs.triage}/live`, headers: { host: '127.0.0.1' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = [...res.body.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events).toEqual(['view', 'end']);
    const data = /^event: view\ndata: (.*)$/m.exec(res.body)?.[1] ?? '{}';
    expect((JSON.parse(data) as RunView).run.status).toBe('succeeded');
  });
});

describe('a journal backend that ignores `before`', () => {
  it('pages to an end without repeating a run: rows not after the cursor are dropped', async () => {
    const summaries = [3, 2, 1].map((n) => ({
      run_id: `run-${n}`,
      recipe: 'r',
      file: 'r.yaml',
      status: 'succeeded' as const,
      started_at: new Date(Date.UTC(2026, 0, n)).toISOString(),
      ended_at: null,
      duration_ms: 1,
      requests: 0,
      writes: 0,
      attempts: 1,
      dry_run: false,
    }));
    const careless: JournalReader = {
      listRuns: async (f) => summaries.slice(0, f?.limit ?? 20),
      getRun: async () => undefined,
      listAttempts: async () => [],
      listSteps: async () => [],
      listExchanges: async () => [],
      getEffects: async () => ({}),
      writesInDoubt: async () => [],
      close: async () => undefined,
    };
    const fake = await buildConsoleApp({
      cwd: dir,
      recipeFolders: ['recipes'],
      journal: { label: 'careless', open: async () => careless },
      version: 'test',
    });
    try {
      const seen: string[] = [];
      let next: string | null = '';
      for (let pages = 0; next !== null && pages < 10; pages++) {
        const res = await fake.inject({
          url: `/api/runs?limit=2${next ? `&before=${next}` : ''}`,
          headers: { host: '127.0.0.1' },
        });
        const page: RunsPage = res.json<RunsPage>();
        seen.push(...page.runs.map((r) => r.run_id));
        next = page.next;
      }
      expect(next).toBeNull();
      expect(seen).toEqual(['run-3', 'run-2', 'run-1']);
    } finally {
      await fake.close();
    }
  });
});
