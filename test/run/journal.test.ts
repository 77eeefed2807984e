import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorClient } from '../../src/client/index.js';
import { resolveInputs } from '../../src/compile/index.js';
import type { Plan } from '../../src/compile/plan.js';
import { openJournal, type JournalStore } from '../../src/journal/index.js';
import { resumeRun, runPlan, type ResumeFlags, type RunOptions, type RunReport } from '../../src/run/index.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { compile, runJournaled, tempDir, testClient, writeFiles } from './helpers.js';
import { startWebhookServer } from './webhook-server.js';

/** The journal through the real interpreter, a real service (in-process, over HTTP) and a real SQLite file. */
let service: RunningService;
let client: ConnectorClient;

beforeAll(async () => {
  service = await startService({ seed: 'demo', seedSize: 50, logLevel: 'silent' });
  client = testClient(service.url, service.credentials);
});
afterAll(async () => {
  await client.close();
  await service.close();
});

const NOTES = `version: 1
name: notes
inputs:
  tag: { type: string, required: true }
  count: { type: integer, default: 10 }
secrets: [NOTE_SECRET]
connector: { workspace: default, definition: CRM }
steps:
  - id: contacts
    paginate: { entity: contacts, action: list, params: { limit: 5 }, max_pages: 2 }
  - id: notes
    foreach: "\${ [1..$inputs.count] }"
    as: n
    concurrency: 4
    steps:
      - id: note
        execute:
          entity: notes
          action: create
          params:
            properties:
              hs_note_body: "\${ $inputs.tag & ' ' & $string($n) }"
              hs_timestamp: "\${ $run.started_at }"
    collect: "\${ $note.properties.hs_note_body }"
outputs:
  bodies: "\${ $notes }"
  contacts: "\${ $count($contacts) }"
  run: "\${ $run.id & ' ' & $run.started_at }"
`;

interface Setup {
  dir: string;
  journalFile: string;
  store: JournalStore;
  plan: Plan;
}

async function setup(yaml = NOTES): Promise<Setup> {
  const dir = tempDir();
  writeFiles(dir, { 'notes.yaml': yaml });
  const journalFile = join(dir, 'runs.db');
  return { dir, journalFile, store: openJournal(journalFile), plan: await compile(join(dir, 'notes.yaml')) };
}

const env = { NOTE_SECRET: 'sekrit-value-1234' };

function inputsOf(plan: Plan, given: Record<string, unknown>): Record<string, unknown> {
  const { values, diagnostics } = resolveInputs(plan, given);
  if (diagnostics.length) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return values;
}

async function firstRun(
  s: Setup,
  given: Record<string, unknown>,
  extra: Partial<RunOptions> = {},
  runId?: string,
): Promise<RunReport> {
  return runJournaled(s.plan, s.store, client, {
    inputs: inputsOf(s.plan, given),
    env,
    ...(runId ? { runId } : {}),
    ...extra,
  });
}

const noFlags: ResumeFlags = { allowChanged: false, retryFailedItems: false, assumeSent: [], assumeNotSent: [] };

async function resume(s: Setup, runId: string, flags: ResumeFlags = noFlags, plan = s.plan): Promise<RunReport> {
  const record = await s.store.getRun(runId);
  if (!record) throw new Error(`no run ${runId}`);
  const prepared = await resumeRun({ store: s.store, record, plan, client, flags, redactor: client.redactor, env });
  return runPlan(plan, {
    client,
    redactor: client.redactor,
    inputs: inputsOf(plan, prepared.inputs),
    env,
    sleep: async () => undefined,
    durable: prepared.durable,
  });
}

async function notesTagged(tag: string): Promise<string[]> {
  const bodies: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.execute((await client.resolveConnector({ definition: 'CRM' })) as string, {
      entity: 'notes',
      action: 'list',
      params: { limit: 100, properties: 'hs_note_body', ...(after ? { after } : {}) },
    });
    for (const n of page.result as { properties: { hs_note_body?: string } }[])
      if (n.properties.hs_note_body?.startsWith(`${tag} `)) bodies.push(n.properties.hs_note_body);
    after = page.connector_metadata.next_cursor as string | undefined;
    if (!after) break;
  }
  return bodies.sort();
}

describe('the run journal', () => {
  it('journals every call under its deterministic key, writes with an Idempotency-Key, and the end', async () => {
    const s = await setup();
    const report = await firstRun(s, { tag: 'keys' }, {}, 'run-keys');
    expect(report.status).toBe('ok');
    expect(report.run_id).toBe('run-keys');
    const exchanges = await s.store.listExchanges('run-keys');
    // The connector lookup and the action catalog (paging key detection) are shared by the whole run.
    expect(exchanges.map((e) => e.call_key).sort()).toEqual(
      [
        '$connector:default/CRM',
        `$actions:${(await client.resolveConnector({ definition: 'CRM' })) as string}`,
        'contacts#0',
        'contacts#1',
        ...Array.from({ length: 10 }, (_, i) => `notes[${i}].note#0`),
      ].sort(),
    );
    const writes = exchanges.filter((e) => e.write);
    expect(writes).toHaveLength(10);
    expect(writes.every((w) => w.state === 'answered' && /^recipe-[0-9a-f]{40}$/.test(w.idempotency_key ?? ''))).toBe(
      true,
    );
    const record = await s.store.getRun('run-keys');
    expect(record).toMatchObject({ status: 'succeeded', requests: report.requests, writes: 10 });
    expect(JSON.parse(record?.report ?? '{}')).toEqual(report);
    const effects = await s.store.getEffects('run-keys');
    expect(effects).toMatchObject({ 'random:run_id': 'run-keys', 'env:NOTE_SECRET': { read: true } });
    const steps = await s.store.listSteps('run-keys');
    // Steps inside loops that only send requests are told by their exchanges (step path, start, latency).
    expect(steps.filter((e) => e.step_id === 'note')).toHaveLength(0);
    expect(writes.every((w) => w.step_path.endsWith('.note') && w.sent_at !== null && w.latency_ms !== null)).toBe(
      true,
    );
    expect(steps.find((e) => e.step_path === 'notes' && e.attempt === 1)?.status).toBe('ok');
    await s.store.close();
  });

  it('resumes a cancelled run: recorded calls replay, the rest is sent, no note twice, the same outputs', async () => {
    const s = await setup();
    const whole = await firstRun(s, { tag: 'whole', count: 12 }, {}, 'whole');
    // Cancel the next run once 5 notes are written (as Ctrl-C would), then resume it.
    const abort = new AbortController();
    let written = 0;
    const cut = await firstRun(
      s,
      { tag: 'cut', count: 12 },
      {
        signal: abort.signal,
        onEvent: (e) => {
          if (e.type === 'step-end' && e.step.id === 'note' && ++written === 5) abort.abort();
        },
      },
      'cut',
    );
    expect(cut.status).toBe('interrupted');
    expect((await s.store.getRun('cut'))?.status).toBe('cancelled');
    const resumed = await resume(s, 'cut');
    expect(resumed.status).toBe('ok');
    expect(resumed).toMatchObject({ run_id: 'cut', attempt: 2, resumed_from: { attempt: 1, status: 'cancelled' } });
    expect(resumed.replayed_calls).toBeGreaterThanOrEqual(5);
    expect(await notesTagged('cut')).toEqual(Array.from({ length: 12 }, (_, i) => `cut ${i + 1}`).sort());
    // Same outputs as an uninterrupted run (the tag aside), and the run's recorded clock and id.
    const strip = (o: Record<string, unknown>, tag: string) =>
      JSON.stringify({ ...o, run: undefined }).replaceAll(`${tag} `, '');
    expect(strip(resumed.outputs, 'cut')).toBe(strip(whole.outputs, 'whole'));
    const effects = await s.store.getEffects('cut');
    expect(resumed.outputs.run).toBe(`cut ${String(effects['clock:started_at'])}`);
    await s.store.close();
  });

  it('a resume of a whole run sends nothing and answers everything from the journal', async () => {
    const s = await setup();
    const first = await firstRun(s, { tag: 'again', count: 4 }, {}, 'again');
    // Mark it interrupted the way a killed process leaves it: a new attempt that never ended.
    const held = await s.store.resume('again', { kind: 'resume', started_at: Date.now(), options: {} });
    await held.release();
    const sentBefore = client.stats.requests;
    const second = await resume(s, 'again');
    expect(client.stats.requests - sentBefore).toBe(0);
    expect(second.requests).toBe(0);
    expect(second.replayed_calls).toBe((await s.store.listExchanges('again')).length);
    expect(second.outputs).toEqual(first.outputs);
    expect(await notesTagged('again')).toHaveLength(4);
    await s.store.close();
  });

  it('never writes a secret or a token into the journal file', async () => {
    const s = await setup(
      NOTES.replace(
        `"\${ $inputs.tag & ' ' & $string($n) }"`,
        `"\${ $inputs.tag & ' ' & $string($n) & ' ' & $secrets.NOTE_SECRET }"`,
      ),
    );
    const report = await firstRun(s, { tag: 'secret', count: 3 }, {}, 'secret');
    expect(report.status).toBe('ok');
    await s.store.close();
    const bytes = [s.journalFile, `${s.journalFile}-wal`]
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(bytes).toContain('secret 1');
    expect(bytes).not.toContain(env.NOTE_SECRET);
    expect(bytes).not.toContain(service.credentials.clientSecret);
    expect(bytes).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/); // no JWT (access token)
    // The answers that echoed the secret are flagged: a resume cannot replay them as recorded.
    const again = openJournal(s.journalFile);
    expect((await again.listExchanges('secret', { writes_only: true })).every((w) => w.redacted)).toBe(true);
    await again.close();
  });

  it('stops a resume under a changed recipe (J002) unless --allow-changed, and a changed write request (J005)', async () => {
    const s = await setup();
    await firstRun(s, { tag: 'chg', count: 3 }, {}, 'chg');
    const held = await s.store.resume('chg', { kind: 'resume', started_at: Date.now(), options: {} });
    await held.release();
    writeFileSync(join(s.dir, 'notes.yaml'), NOTES.replace("' ' & $string($n)", "' #' & $string($n)"));
    const changed = await compile(join(s.dir, 'notes.yaml'));
    await expect(resume(s, 'chg', noFlags, changed)).rejects.toMatchObject({ code: 'J002' });
    const diverged = await resume(s, 'chg', { ...noFlags, allowChanged: true }, changed);
    expect(diverged.status).toBe('failed');
    expect(diverged.error?.code).toBe('J005');
    await s.store.close();
  });

  it('redrives a failed run: the failed call is sent again under the fixed recipe, the rest replays', async () => {
    // Item 3 sends a property the CRM refuses (400): the run fails there.
    const broken = NOTES.replace(
      '              hs_timestamp:',
      '              no_such_property: "${ $n = 3 ? \'x\' }"\n              hs_timestamp:',
    );
    const s = await setup(broken);
    const failed = await firstRun(s, { tag: 'redrive', count: 4 }, {}, 'redrive');
    expect(failed.status).toBe('failed');
    expect((await s.store.getRun('redrive'))?.failed_call).toBe('notes[2].note#0');
    writeFileSync(join(s.dir, 'notes.yaml'), NOTES);
    const fixed = await compile(join(s.dir, 'notes.yaml'));
    const redriven = await resume(s, 'redrive', { ...noFlags, allowChanged: true }, fixed);
    expect(redriven.status).toBe('ok');
    expect(redriven.resumed_from).toEqual({ attempt: 1, status: 'failed' });
    expect(await notesTagged('redrive')).toEqual(['redrive 1', 'redrive 2', 'redrive 3', 'redrive 4']);
    expect((await s.store.listAttempts('redrive')).map((a) => a.kind)).toEqual(['run', 'redrive']);
    await s.store.close();
  });

  it('--retry-failed-items sends again the items that failed under on_error: continue, and only them', async () => {
    // Items 3 and 6 send a property the CRM refuses while the input `fail` is true.
    const yaml = NOTES.replace('    concurrency: 4\n', '    concurrency: 4\n    on_error: continue\n')
      .replace(
        '              hs_timestamp:',
        '              no_such_property: "${ $inputs.fail and $n % 3 = 0 ? \'x\' }"\n              hs_timestamp:',
      )
      .replace(
        '  count: { type: integer, default: 10 }',
        '  count: { type: integer, default: 10 }\n  fail: { type: boolean, default: true }',
      );
    const s = await setup(yaml);
    const first = await firstRun(s, { tag: 'items', count: 7 }, {}, 'items');
    expect(first.status).toBe('ok');
    expect((first.outputs.bodies as unknown[]).filter((b) => b === null || typeof b === 'object')).toHaveLength(2);
    const held = await s.store.resume('items', { kind: 'resume', started_at: Date.now(), options: {} });
    await held.release();
    // Without the flag the failures replay; with it (and the recipe fixed), the two items are sent again.
    writeFileSync(join(s.dir, 'notes.yaml'), yaml.replace('$inputs.fail and', 'false and'));
    const fixed = await compile(join(s.dir, 'notes.yaml'));
    const retried = await resume(s, 'items', { ...noFlags, allowChanged: true, retryFailedItems: true }, fixed);
    expect(retried.status).toBe('ok');
    expect(retried.requests).toBe(2);
    expect(await notesTagged('items')).toHaveLength(7);
    await s.store.close();
  });

  it('journals http steps: a GET replays on resume; a POST in doubt is settled only by the flags', async () => {
    const hook = await startWebhookServer();
    let held: ServerResponse | undefined;
    const abort = new AbortController();
    hook.answer = (req, res) => {
      if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"v":1}');
      if (!held) {
        held = res; // the first POST is taken in and never answered: the run is cancelled meanwhile
        abort.abort();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    try {
      const s = await setup(`version: 1
name: hooks
inputs:
  tag: { type: string, required: true }
steps:
  - id: got
    http: { url: "${hook.url}/data" }
  - id: posted
    http: { method: POST, url: "${hook.url}/hook", json: { v: "\${ $got.v }" } }
outputs:
  ok: "\${ $posted.ok }"
`);
      const cut = await firstRun(s, { tag: 'h' }, { signal: abort.signal }, 'hooks');
      expect(cut.status).toBe('interrupted');
      // The connector service honours Idempotency-Key, but that says nothing about the webhook: J004.
      await expect(resume(s, 'hooks')).rejects.toMatchObject({ code: 'J004' });
      const settled = await resume(s, 'hooks', { ...noFlags, assumeNotSent: ['posted'] });
      expect(settled).toMatchObject({ status: 'ok', outputs: { ok: true }, replayed_calls: 1 });
      const gets = hook.received.filter((r) => r.method === 'GET');
      const posts = hook.received.filter((r) => r.method === 'POST');
      expect(gets).toHaveLength(1);
      expect(posts).toHaveLength(2);
      expect(posts[1]?.headers['idempotency-key']).toBe(posts[0]?.headers['idempotency-key']);
      await s.store.close();
    } finally {
      held?.end();
      await hook.close();
    }
  });
});
