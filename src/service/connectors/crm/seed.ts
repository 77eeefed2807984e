import type { Kysely } from 'kysely';
import type { ActionContext, SeedOptions } from '../../core/connector-type.js';
import { defaultType, platformTypes } from './association-types.js';
import { customAssociationTypeId, type CustomSchema } from './custom-schema.js';
import { bulkInsert, withBulkLoadCache } from './bulk-insert.js';
import { ACTIVITY_ENTITIES, DEAL_STAGES, type RecordEntity } from './entities.js';
import { customType, findSchema, standardType } from './object-types.js';
import { Prng } from './prng.js';
import { reserveRecordIds } from './records-store.js';
import { insertSchema } from './schema-store.js';
import * as W from './seed-data.js';
import type { CoreTables } from '../../core/tables.js';

const DAY = 86_400_000;
/** Rows per write transaction: big enough to be fast, small enough to keep memory flat at 1M contacts. */
const FLUSH_ROWS = 200_000;

/** How many records of each kind a seed of `size` contacts makes (about 5,000 in all for 2,000 contacts). */
export function seedCounts(size: number): Record<RecordEntity | 'vehicles', number> {
  const n = (f: number) => Math.max(1, Math.round(size * f));
  return {
    contacts: Math.max(1, size),
    companies: n(0.2),
    deals: n(0.4),
    tickets: n(0.15),
    notes: n(0.2),
    calls: n(0.125),
    emails: n(0.125),
    meetings: n(0.075),
    tasks: n(0.15),
    vehicles: n(0.075),
  };
}

const RECORD_COLUMNS = [
  'connector_id',
  'id',
  'object_type',
  'properties',
  'created_at',
  'updated_at',
  'archived',
  'archived_at',
  'email_key',
] as const;
const ASSOCIATION_COLUMNS = [
  'connector_id',
  'from_id',
  'from_type',
  'to_id',
  'to_type',
  'category',
  'type_id',
] as const;

/** Accumulates rows and writes them in multi-row inserts, one transaction per flush. */
class Writer {
  private records: unknown[][] = [];
  private assocs: unknown[][] = [];
  constructor(
    private readonly db: { transaction<T>(fn: (trx: Kysely<CoreTables>) => Promise<T>): Promise<T> },
    private readonly cid: string,
  ) {}
  record(
    id: number,
    type: string,
    props: Record<string, string>,
    created: string,
    updated: string,
    email: string | null = null,
  ): void {
    props.hs_object_id = String(id);
    this.records.push([this.cid, id, type, JSON.stringify(props), created, updated, 0, null, email]);
  }
  link(aType: string, a: number, bType: string, b: number, typeId: number, inverse: number): void {
    this.assocs.push(
      [this.cid, a, aType, b, bType, 'PLATFORM_DEFINED', typeId],
      [this.cid, b, bType, a, aType, 'PLATFORM_DEFINED', inverse],
    );
  }
  async maybeFlush(): Promise<void> {
    if (this.records.length + this.assocs.length >= FLUSH_ROWS) await this.flush();
  }
  async flush(): Promise<void> {
    const records = this.records;
    const assocs = this.assocs;
    this.records = [];
    this.assocs = [];
    if (records.length === 0 && assocs.length === 0) return;
    await this.db.transaction(async (trx) => {
      await bulkInsert(trx, 'crm_records', RECORD_COLUMNS, records);
      // Key order turns the reverse rows' scattered inserts into runs on the same B-tree pages (~30% less CPU).
      assocs.sort((x, y) => (x[1] as number) - (y[1] as number) || (x[3] as number) - (y[3] as number));
      // Fresh ids on both ends: no row can already exist, so no conflict clause.
      await bulkInsert(trx, 'crm_associations', ASSOCIATION_COLUMNS, assocs);
    });
  }
}

function defaultLink(w: Writer, a: RecordEntity, aId: number, b: RecordEntity, bId: number): void {
  const def = defaultType(standardType(a), standardType(b))!;
  w.link(a, aId, b, bId, def.typeId, def.inverseId);
}

function primaryLink(w: Writer, a: RecordEntity, aId: number, b: RecordEntity, bId: number): void {
  const def = platformTypes(standardType(a), standardType(b)).find((d) => d.label === 'Primary')!;
  w.link(a, aId, b, bId, def.typeId, def.inverseId);
}

/**
 * Fills a connector with a deterministic demo CRM: companies, contacts, deals in every stage (some
 * stale, close dates around today), tickets, the five activity kinds, a "vehicles" custom object and
 * associations between them. Dates are relative to the start of the current UTC day, so a seed and a
 * day give the same data everywhere. Records are written in batches of multi-row inserts.
 */
export async function seedCrmDemo(ctx: ActionContext, opts: SeedOptions): Promise<void> {
  await withBulkLoadCache(ctx.store.db, () => seedInto(ctx, opts));
}

async function seedInto(ctx: ActionContext, opts: SeedOptions): Promise<void> {
  const rng = new Prng(opts.seed);
  const cid = ctx.connector.id;
  const anchor = Math.floor(ctx.now().getTime() / DAY) * DAY;
  const iso = (ms: number) => new Date(ms).toISOString();
  const count = seedCounts(opts.size);
  const total = Object.values(count).reduce((a, b) => a + b, 0);
  // The whole id block is reserved first, so API writes during a long seed take ids after it.
  const { base, schema } = await ctx.store.transaction(async (trx) => ({
    base: await reserveRecordIds(trx, cid, total),
    schema:
      (await findSchema(trx, cid, 'vehicles')) ?? (await insertSchema(trx, cid, VEHICLES, iso(anchor - 400 * DAY))),
  }));
  // Ids are laid out by kind so associations can name their ends before those are written.
  const start: Record<string, number> = {};
  let next = base;
  for (const kind of [
    'companies',
    'contacts',
    'deals',
    'tickets',
    'notes',
    'calls',
    'emails',
    'meetings',
    'tasks',
    'vehicles',
  ] as const) {
    start[kind] = next;
    next += count[kind];
  }
  const idOf = (kind: string, k: number) => start[kind]! + k;
  const w = new Writer(ctx.store, cid);
  const times = (maxAgeDays: number): [string, string] => {
    const created = anchor - rng.int(maxAgeDays * DAY);
    const updated = created + rng.int(Math.max(1, anchor - created));
    return [iso(created), iso(updated)];
  };
  const owner = (p = 0.9): Record<string, string> => (rng.chance(p) ? { crm_owner_id: rng.pick(W.OWNERS) } : {});

  const companyNames: string[] = [];
  for (let k = 0; k < count.companies; k++) {
    const name = `${rng.pick(W.COMPANY_WORDS)} ${rng.pick(W.COMPANY_SUFFIXES)}${k >= W.COMPANY_WORDS.length * W.COMPANY_SUFFIXES.length ? ` ${k}` : ''}`;
    companyNames.push(name);
    const [c, u] = times(900);
    const [city, state, country] = rng.pick(W.CITIES);
    w.record(
      idOf('companies', k),
      'companies',
      {
        name,
        domain: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`,
        industry: rng.pick(W.INDUSTRIES),
        city,
        state,
        country,
        numberofemployees: String(5 + rng.int(5000)),
        annualrevenue: String(100_000 + rng.int(50_000_000)),
        lifecyclestage: rng.pick(W.LIFECYCLE),
        phone: `+1-555-${String(1000 + rng.int(9000))}`,
        createdate: c,
        hs_lastmodifieddate: u,
        ...owner(),
      },
      c,
      u,
    );
    await w.maybeFlush();
  }
  for (let k = 0; k < count.contacts; k++) {
    const id = idOf('contacts', k);
    const first = rng.pick(W.FIRST_NAMES);
    const last = rng.pick(W.LAST_NAMES);
    const companyK = rng.int(count.companies);
    const email =
      `${first}.${last}.${id}@${companyNames[companyK]!.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`.toLowerCase();
    const [c, u] = times(720);
    w.record(
      id,
      'contacts',
      {
        firstname: first,
        lastname: last,
        email,
        phone: `+1-555-${String(1000 + rng.int(9000))}`,
        company: companyNames[companyK]!,
        jobtitle: rng.pick(W.JOB_TITLES),
        lifecyclestage: rng.pick(W.LIFECYCLE),
        createdate: c,
        lastmodifieddate: u,
        ...owner(),
      },
      c,
      u,
      email,
    );
    defaultLink(w, 'contacts', id, 'companies', idOf('companies', companyK));
    primaryLink(w, 'contacts', id, 'companies', idOf('companies', companyK));
    await w.maybeFlush();
  }
  for (let k = 0; k < count.deals; k++) {
    const id = idOf('deals', k);
    const stage = DEAL_STAGES[k % DEAL_STAGES.length]!;
    const closed = stage === 'closedwon' || stage === 'closedlost';
    const [c, u0] = times(540);
    // One open deal in five has not been touched for 60-240 days: the "stale deals" case.
    const stale = !closed && rng.chance(0.2);
    const u = stale ? iso(Math.max(Date.parse(c), anchor - (60 + rng.int(180)) * DAY)) : u0;
    const close = closed ? anchor - rng.int(180) * DAY : anchor + (rng.int(150) - 30) * DAY;
    const companyK = rng.int(count.companies);
    w.record(
      id,
      'deals',
      {
        dealname: `${companyNames[companyK]} - ${rng.pick(['Renewal', 'Expansion', 'Pilot', 'Platform', 'Support plan'])}`,
        amount: String(500 + rng.int(200) * 250),
        dealstage: stage,
        pipeline: 'default',
        closedate: iso(close),
        dealtype: rng.pick(['newbusiness', 'existingbusiness']),
        createdate: c,
        hs_lastmodifieddate: u,
        ...owner(),
      },
      c,
      u,
    );
    defaultLink(w, 'deals', id, 'companies', idOf('companies', companyK));
    defaultLink(w, 'deals', id, 'contacts', idOf('contacts', rng.int(count.contacts)));
    await w.maybeFlush();
  }
  for (let k = 0; k < count.tickets; k++) {
    const id = idOf('tickets', k);
    const [c, u] = times(365);
    const props: Record<string, string> = {
      subject: rng.pick(W.TICKET_SUBJECTS),
      content: 'Customer reported the problem by email.',
      hs_pipeline: '0',
      hs_pipeline_stage: rng.pick(['1', '1', '2', '3', '4']),
      hs_ticket_category: rng.pick(W.TICKET_CATEGORIES),
      createdate: c,
      hs_lastmodifieddate: u,
      ...owner(0.75),
    };
    if (rng.chance(0.85)) props.hs_ticket_priority = rng.pick(['LOW', 'MEDIUM', 'HIGH']);
    w.record(id, 'tickets', props, c, u);
    defaultLink(w, 'tickets', id, 'contacts', idOf('contacts', rng.int(count.contacts)));
    defaultLink(w, 'tickets', id, 'companies', idOf('companies', rng.int(count.companies)));
    await w.maybeFlush();
  }
  const targets: RecordEntity[] = ['contacts', 'contacts', 'companies', 'deals', 'tickets'];
  for (const kind of ACTIVITY_ENTITIES) {
    for (let k = 0; k < count[kind]; k++) {
      const id = idOf(kind, k);
      const [c, u] = times(365);
      const when = iso(Date.parse(c) + rng.int(3 * DAY));
      w.record(
        id,
        kind,
        { ...activityProps(kind, rng, when, anchor), hs_createdate: c, hs_lastmodifieddate: u, ...owner() },
        c,
        u,
      );
      const target = rng.pick(targets);
      defaultLink(w, kind, id, target, idOf(target, rng.int(count[target])));
      await w.maybeFlush();
    }
  }
  await seedVehicles(w, rng, schema, count.vehicles, idOf, count.contacts, times);
  await w.flush();
}

function activityProps(kind: string, rng: Prng, when: string, anchor: number): Record<string, string> {
  switch (kind) {
    case 'notes':
      return {
        hs_note_body: `<p>${rng.pick(['Discussed pricing.', 'Sent the proposal.', 'Follow up next week.', 'Asked for a demo.'])}</p>`,
        hs_timestamp: when,
      };
    case 'calls':
      return {
        hs_call_title: rng.pick(['Intro call', 'Check-in', 'Renewal call']),
        hs_call_body: 'Talked through next steps.',
        hs_call_direction: rng.pick(['INBOUND', 'OUTBOUND']),
        hs_call_status: rng.pick(W.CALL_STATUS),
        hs_call_duration: String(60_000 + rng.int(1_800_000)),
        hs_timestamp: when,
      };
    case 'emails':
      return {
        hs_email_subject: rng.pick(['Proposal', 'Your invoice', 'Meeting notes', 'Quick question']),
        hs_email_text: 'Hello, following up on our conversation.',
        hs_email_direction: rng.pick(['EMAIL', 'INCOMING_EMAIL', 'FORWARDED_EMAIL']),
        hs_email_status: rng.pick(['SENT', 'SENT', 'BOUNCED', 'SCHEDULED']),
        hs_timestamp: when,
      };
    case 'meetings': {
      const startMs = anchor + (rng.int(60) - 30) * DAY + 9 * 3_600_000;
      return {
        hs_meeting_title: rng.pick(['Demo', 'Quarterly review', 'Kick-off']),
        hs_meeting_body: '<p>Agenda attached.</p>',
        hs_meeting_start_time: new Date(startMs).toISOString(),
        hs_meeting_end_time: new Date(startMs + 3_600_000).toISOString(),
        hs_meeting_outcome: rng.pick(W.MEETING_OUTCOMES),
        hs_timestamp: new Date(startMs).toISOString(),
      };
    }
    default:
      return {
        hs_task_subject: rng.pick(['Send contract', 'Call back', 'Prepare quote', 'Update CRM']),
        hs_task_body: 'See the last note.',
        hs_task_status: rng.pick(['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'COMPLETED', 'DEFERRED']),
        hs_task_priority: rng.pick(['LOW', 'MEDIUM', 'HIGH']),
        hs_task_type: rng.pick(['TODO', 'CALL', 'EMAIL']),
        hs_timestamp: new Date(anchor + (rng.int(40) - 20) * DAY).toISOString(),
      };
  }
}

async function seedVehicles(
  w: Writer,
  rng: Prng,
  schema: CustomSchema,
  n: number,
  idOf: (kind: string, k: number) => number,
  contacts: number,
  times: (d: number) => [string, string],
): Promise<void> {
  const type = customType(schema);
  const typeId = customAssociationTypeId(schema.id, 'contacts');
  for (let k = 0; k < n; k++) {
    const id = idOf('vehicles', k);
    const [c, u] = times(500);
    w.record(
      id,
      type.key,
      {
        vin: `VIN${String(id).padStart(10, '0')}`,
        make: rng.pick(W.MAKES),
        model: rng.pick(W.MODELS),
        year: String(2010 + rng.int(16)),
        hs_createdate: c,
        hs_lastmodifieddate: u,
      },
      c,
      u,
    );
    w.link(type.key, id, 'contacts', idOf('contacts', rng.int(contacts)), typeId, typeId + 1);
    await w.maybeFlush();
  }
}

/** The demo custom object type. */
const VEHICLES = {
  name: 'vehicles',
  labels: { singular: 'Vehicle', plural: 'Vehicles' },
  description: 'Vehicles owned by contacts (demo custom object).',
  properties: [
    { name: 'vin', label: 'VIN', type: 'string' as const, hasUniqueValue: true },
    {
      name: 'make',
      label: 'Make',
      type: 'enumeration' as const,
      options: W.MAKES.map((m) => ({ label: m, value: m })),
    },
    { name: 'model', label: 'Model', type: 'string' as const },
    { name: 'year', label: 'Year', type: 'number' as const },
  ],
  requiredProperties: ['vin', 'make'],
  searchableProperties: ['vin', 'make', 'model'],
  primaryDisplayProperty: 'vin',
  secondaryDisplayProperties: ['make', 'model'],
};
