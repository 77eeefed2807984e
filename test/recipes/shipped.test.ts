import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorClient } from '../../src/client/index.js';
import { runRecipe } from '../../src/run/index.js';
import type { RunReport } from '../../src/run/index.js';
import { startService, type RunningService } from '../../src/service/start.js';

/**
 * Every shipped recipe, run against the embedded service with the demo data; expected values are
 * computed here from the same service through the client, not hard-coded.
 */
const RECIPES = join(import.meta.dirname, '../../recipes');

let service: RunningService;
let client: ConnectorClient;
let crm: string;
let files: string;

type Rec = {
  id: string;
  properties: Record<string, string | null>;
  updatedAt: string;
  createdAt: string;
  associations?: Record<string, { results: { id: string }[] }>;
};

beforeAll(async () => {
  service = await startService({ seed: 'demo', logLevel: 'silent' });
  client = new ConnectorClient({ baseUrl: service.url, ...service.credentials, workspace: 'default' });
  crm = await client.resolveConnector({ definition: 'CRM' });
  files = await client.resolveConnector({ definition: 'Files' });
});
afterAll(async () => {
  await client.close();
  await service.close();
});

async function run(name: string, inputs: Record<string, unknown> = {}, dryRun = false): Promise<RunReport> {
  const result = await runRecipe(join(RECIPES, name), { client, inputs, dryRun });
  if (!result.report) throw new Error(result.diagnostics.map((d) => `${d.line}: ${d.code} ${d.message}`).join('\n'));
  if (result.report.status !== 'ok') throw new Error(JSON.stringify(result.report.error));
  return result.report;
}

/** Every record of a CRM entity, paged with after/next_cursor (independently of the interpreter). */
async function all(entity: string, params: Record<string, unknown> = {}): Promise<Rec[]> {
  const out: Rec[] = [];
  let after: string | undefined;
  do {
    const env = await client.execute(crm, {
      entity,
      action: 'list',
      params: { limit: 100, ...params, ...(after ? { after } : {}) },
    });
    out.push(...(env.result as Rec[]));
    after = (env.connector_metadata.next_cursor as string | null) ?? undefined;
  } while (after);
  return out;
}

const CLOSED = new Set(['closedwon', 'closedlost']);
const isOpen = (d: Rec) => !CLOSED.has(String(d.properties.dealstage));

describe('pipeline-report', () => {
  it('groups open deals by stage in pipeline order with counts and totals', async () => {
    const deals = (await all('deals', { properties: 'amount,dealstage,pipeline' })).filter(
      (d) => isOpen(d) && d.properties.pipeline === 'default',
    );
    const order = [
      'appointmentscheduled',
      'qualifiedtobuy',
      'presentationscheduled',
      'decisionmakerboughtin',
      'contractsent',
    ];
    const expected = order
      .map((stage) => {
        const inStage = deals.filter((d) => d.properties.dealstage === stage);
        return {
          stage,
          deals: inStage.length,
          amount: inStage.reduce((s, d) => s + Number(d.properties.amount ?? 0), 0),
        };
      })
      .filter((r) => r.deals > 0);
    const report = await run('pipeline-report.yaml');
    expect(report.outputs.by_stage).toEqual(expected);
    expect(report.outputs.open_deals).toBe(deals.length);
    expect(report.outputs.open_amount).toBe(expected.reduce((s, r) => s + r.amount, 0));
    expect(deals.length).toBeGreaterThan(0);
  });
});

describe('stale-deals-follow-up', () => {
  it('dry run sends no write; a real run creates one associated task per stale deal; a second run creates none', async () => {
    const cutoff = Date.now() - 30 * 86_400_000;
    const stale = (await all('deals', { properties: 'dealstage' })).filter(
      (d) => isOpen(d) && Date.parse(d.updatedAt) < cutoff,
    );
    expect(stale.length).toBeGreaterThan(0);
    const tasksBefore = (await all('tasks')).length;

    const dry = await run('stale-deals-follow-up.yaml', { days: 30 }, true);
    expect(dry.dry_run_writes).toHaveLength(stale.length);
    expect((await all('tasks')).length).toBe(tasksBefore);

    const first = await run('stale-deals-follow-up.yaml', { days: 30 });
    expect(first.outputs.stale_deals).toBe(stale.length);
    expect(first.outputs.tasks_created).toBe(stale.length);
    expect((await all('tasks')).length).toBe(tasksBefore + stale.length);
    const created = first.outputs.created as { deal: string; task: string }[];
    expect(new Set(created.map((c) => c.deal))).toEqual(new Set(stale.map((d) => d.id)));
    const sample = created[0]!;
    const task = await client.execute(crm, {
      entity: 'tasks',
      action: 'get',
      params: { taskId: sample.task, associations: 'deals', properties: 'hs_task_subject' },
    });
    const t = task.result as Rec;
    expect(t.properties.hs_task_subject).toContain(`[deal-follow-up ${sample.deal}]`);
    expect(t.associations?.deals?.results.map((r) => String(r.id))).toContain(sample.deal);

    const second = await run('stale-deals-follow-up.yaml', { days: 30 });
    expect(second.outputs.tasks_created).toBe(0);
    expect(second.outputs.already_followed_up).toBe(second.outputs.stale_deals);
    expect((await all('tasks')).length).toBe(tasksBefore + stale.length);
  });
});

describe('ticket-triage', () => {
  it('gives unowned open high-priority tickets the owner and a note; a second run changes nothing', async () => {
    const props = { properties: 'hs_ticket_priority,hs_pipeline_stage,crm_owner_id' };
    const todo = (await all('tickets', props)).filter(
      (t) =>
        t.properties.hs_ticket_priority === 'HIGH' &&
        t.properties.hs_pipeline_stage !== '4' &&
        !t.properties.crm_owner_id,
    );
    expect(todo.length).toBeGreaterThan(0);
    const report = await run('ticket-triage.yaml', { owner_id: '1007' });
    expect(report.outputs.triaged).toBe(todo.length);
    const after = new Map((await all('tickets', props)).map((t) => [t.id, t]));
    for (const t of todo) expect(after.get(t.id)?.properties.crm_owner_id).toBe('1007');
    const one = await client.execute(crm, {
      entity: 'tickets',
      action: 'get',
      params: { ticketId: todo[0]!.id, associations: 'notes' },
    });
    const noteIds = (one.result as Rec).associations?.notes?.results.map((r) => String(r.id)) ?? [];
    const triaged = report.outputs.tickets as { ticket: string; note: string }[];
    expect(noteIds).toContain(String(triaged.find((x) => x.ticket === todo[0]!.id)?.note));
    expect((await run('ticket-triage.yaml', { owner_id: '1007' })).outputs.triaged).toBe(0);
  });
});

describe('company-rollup', () => {
  it('counts contacts and deals per company through associations', async () => {
    const report = await run('company-rollup.yaml', { top: 5 });
    const companies = await all('companies');
    expect(report.outputs.companies).toBe(companies.length);
    const top = report.outputs.top as { company: string; contacts: number; deals: number }[];
    expect(top).toHaveLength(5);
    for (let i = 1; i < top.length; i++) expect(top[i - 1]!.deals).toBeGreaterThanOrEqual(top[i]!.deals);
    const first = top[0]!;
    const count = async (toObjectType: string) =>
      (
        (
          await client.execute(crm, {
            entity: 'associations',
            action: 'list',
            params: { fromObjectType: 'companies', fromObjectId: first.company, toObjectType },
          })
        ).result as { results: unknown[] }
      ).results.length;
    expect(first.contacts).toBe(await count('contacts'));
    expect(first.deals).toBe(await count('deals'));
  });
});

describe('deal-stage-snapshot (call)', () => {
  it('reuses lib/count-by-stage.yaml for all deals and recent ones', async () => {
    const deals = await all('deals', { properties: 'dealstage' });
    const report = await run('deal-stage-snapshot.yaml', { days: 90 });
    const allStages = report.outputs.all as { stage: string; deals: number }[];
    expect(allStages.reduce((s, r) => s + r.deals, 0)).toBe(deals.length);
    const recent = deals.filter((d) => Date.parse(d.createdAt) >= Date.now() - 90 * 86_400_000).length;
    expect(report.outputs.recent_deals).toBe(recent);
    expect(report.steps.filter((s) => s.kind === 'call').map((s) => s.status)).toEqual(['ok', 'ok']);
  });
});

describe('contacts-export', () => {
  it('writes every contact as CSV into the Files connector', async () => {
    // Accents, quotes and a comma: UTF-8 must survive base64 and the CSV quoting must hold.
    await client.execute(crm, {
      entity: 'contacts',
      action: 'create',
      params: { properties: { email: 'jose@example.com', firstname: 'José "Pepe"', lastname: 'Núñez, Jr.' } },
    });
    const contacts = await all('contacts', { properties: 'email' });
    const report = await run('contacts-export.yaml', { folder: 'Exports' });
    expect(report.outputs.contacts).toBe(contacts.length);
    const file = await client.download(files, {
      entity: 'files',
      action: 'download',
      params: { fileId: String(report.outputs.file_id) },
    });
    const lines = file.bytes.toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('email,firstname,lastname,company,phone,lifecyclestage');
    expect(lines).toHaveLength(contacts.length + 1);
    // RFC 4180: a field is quoted when it holds a comma, a quote or a line break, its quotes doubled.
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(contacts.map((c) => c.properties.email));
    expect(lines).toContain('jose@example.com,"José ""Pepe""","Núñez, Jr.",,,');
  });
});

describe('deals-closing-this-month (context store)', () => {
  it('finds open deals closing in the month above the amount, biggest first', async (ctx) => {
    const probe = await client
      .execute(crm, { entity: 'deals', action: 'context_store_search', params: { query: {}, limit: 1 } })
      .catch((e: Error) => e);
    if (probe instanceof Error && /not available/.test(probe.message)) {
      ctx.skip('the embedded CRM connector does not offer context_store_search yet (context store not wired into it)');
    }
    const deals = await all('deals', { properties: 'amount,dealstage,closedate' });
    const month = '2026-12';
    const expected = deals
      .filter(
        (d) => isOpen(d) && String(d.properties.closedate).startsWith(month) && Number(d.properties.amount) > 20000,
      )
      .sort((a, b) => Number(b.properties.amount) - Number(a.properties.amount));
    const report = await run('deals-closing-this-month.yaml', { month, min_amount: 20000 });
    const rows = report.outputs.deals as { deal: string; amount: number }[];
    expect(report.outputs.count).toBe(expected.length);
    expect(rows.map((r) => r.amount)).toEqual(expected.map((d) => Number(d.properties.amount)));
    expect(new Set(rows.map((r) => r.deal))).toEqual(new Set(expected.map((d) => d.id)));
  });
});
