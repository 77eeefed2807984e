/**
 * A small connector type with a context store, used to test the indexer, readiness and the filter
 * language through HTTP independently of the CRM. Entity `people`: properties firstname, lastname,
 * email, city, amount; array field companies (ids); actions create, update, archive, get, context_store_search.
 */
import type { Kysely } from 'kysely';
import {
  contextStoreSearchParamsSchema,
  contextStoreSearchResultSchema,
} from '../../../../src/service/context-store/index.js';
import type {
  ActionContext,
  ActionDescriptor,
  ConnectorType,
  IndexDoc,
} from '../../../../src/service/core/connector-type.js';
import type { Migration } from '../../../../src/service/core/store.js';
import { ServiceError } from '../../../../src/service/core/errors.js';

export const PEOPLE_PROPERTIES = ['firstname', 'lastname', 'email', 'city', 'amount'] as const;

interface PersonRow {
  id: number;
  connector_id: string;
  properties: string;
  companies: string;
  addresses: string;
  archived: number;
  created_at: string;
  updated_at: string;
}

export const peopleMigration: Migration = {
  name: '090-test-people',
  async up(db) {
    await db.schema
      .createTable('test_people')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.id').onDelete('cascade'))
      .addColumn('properties', 'text', (c) => c.notNull())
      .addColumn('companies', 'text', (c) => c.notNull())
      .addColumn('addresses', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('archived', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

const db = (ctx: ActionContext) => ctx.store.db.withTables<{ test_people: PersonRow }>();

function toDoc(r: PersonRow): IndexDoc {
  return {
    id: String(r.id),
    archived: r.archived === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    properties: JSON.parse(r.properties) as Record<string, string | null>,
    companies: JSON.parse(r.companies) as string[],
    addresses: JSON.parse(r.addresses) as { city: string; state: string }[],
  };
}

const anyParams = { type: 'object' } as const;
const searchFields = [
  'id',
  'archived',
  'createdAt',
  'updatedAt',
  ...PEOPLE_PROPERTIES.map((p) => `properties.${p}`),
  'companies',
  'addresses',
];

function descriptor(action: string, paramsSchema: Record<string, unknown>, write: boolean): ActionDescriptor {
  return {
    entity: 'people',
    action,
    paramsSchema,
    requiredParams: [],
    optionalParams: [],
    write,
    summary: `${action} people`,
  };
}

export const peopleConnector: ConnectorType = {
  definition: {
    id: '0d0e0f10-1112-4314-9516-171819202122',
    name: 'People',
    slug: 'people',
    iconUrl: 'https://icons.recipe.local/people.svg',
    supportLevel: 'community',
  },
  actions: [
    descriptor('create', anyParams, true),
    descriptor('update', anyParams, true),
    descriptor('archive', anyParams, true),
    descriptor('get', anyParams, false),
    {
      ...descriptor('context_store_search', contextStoreSearchParamsSchema('people', searchFields), false),
      resultSchema: contextStoreSearchResultSchema,
      requiredParams: ['query'],
      optionalParams: ['limit', 'cursor', 'fields'],
    },
  ],
  async execute(ctx, entity, action, params) {
    const now = ctx.now().toISOString();
    if (action === 'context_store_search') {
      // Through the context store the service runs, as the CRM reaches it (its cursors are sealed with the service's key).
      if (!ctx.contextStore) throw new Error('this service runs no context store');
      return ctx.contextStore.search(ctx, entity, params);
    }
    if (action === 'create') {
      const row = await db(ctx)
        .insertInto('test_people')
        .values({
          connector_id: ctx.connector.id,
          properties: JSON.stringify(params.properties ?? {}),
          companies: JSON.stringify(params.companies ?? []),
          archived: 0,
          created_at: now,
          updated_at: now,
        } as PersonRow)
        .returningAll()
        .executeTakeFirstOrThrow();
      ctx.notifyChange('people', [String(row.id)]);
      return { kind: 'json', result: toDoc(row), connectorMetadata: {} };
    }
    const id = Number(params.id);
    const row = await db(ctx)
      .selectFrom('test_people')
      .selectAll()
      .where('connector_id', '=', ctx.connector.id)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new ServiceError('H404', { message: `person ${String(params.id)} not found` });
    if (action === 'get') return { kind: 'json', result: toDoc(row), connectorMetadata: {} };
    const props = {
      ...(JSON.parse(row.properties) as Record<string, unknown>),
      ...((params.properties as Record<string, unknown>) ?? {}),
    };
    const updated = await db(ctx)
      .updateTable('test_people')
      .set({ properties: JSON.stringify(props), updated_at: now, ...(action === 'archive' ? { archived: 1 } : {}) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    ctx.notifyChange('people', [String(id)]);
    return { kind: 'json', result: toDoc(updated), connectorMetadata: {} };
  },
  contextStore: {
    entities: ['people'],
    arrayFields: () => ['companies', 'addresses'],
    propertyFields: () => [...PEOPLE_PROPERTIES],
    async scan(ctx, _entity, after, limit) {
      const rows = await db(ctx)
        .selectFrom('test_people')
        .selectAll()
        .where('connector_id', '=', ctx.connector.id)
        .where('id', '>', after === null ? 0 : Number(after))
        .orderBy('id')
        .limit(limit)
        .execute();
      const last = rows[rows.length - 1];
      return { docs: rows.map(toDoc), next: rows.length === limit && last ? String(last.id) : null };
    },
    async read(ctx, _entity, ids) {
      const rows = await db(ctx)
        .selectFrom('test_people')
        .selectAll()
        .where('connector_id', '=', ctx.connector.id)
        .where('id', 'in', ids.map(Number))
        .execute();
      return rows.map(toDoc);
    },
    async count(ctx) {
      const r = await db(ctx)
        .selectFrom('test_people')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('connector_id', '=', ctx.connector.id)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  },
};

/** Inserts people directly (as a connector's own sync would), without change notifications. */
export async function insertPeople(
  ctx: { store: { db: Kysely<any> } },
  connectorId: string,
  people: {
    properties: Record<string, string | null>;
    companies?: string[];
    addresses?: { city: string; state: string }[];
    archived?: boolean;
    createdAt?: string;
  }[],
): Promise<void> {
  const now = new Date().toISOString();
  for (let i = 0; i < people.length; i += 200) {
    await (ctx.store.db as Kysely<{ test_people: PersonRow }>)
      .insertInto('test_people')
      .values(
        people.slice(i, i + 200).map(
          (p) =>
            ({
              connector_id: connectorId,
              properties: JSON.stringify(p.properties),
              companies: JSON.stringify(p.companies ?? []),
              addresses: JSON.stringify(p.addresses ?? []),
              archived: p.archived ? 1 : 0,
              created_at: p.createdAt ?? now,
              updated_at: p.createdAt ?? now,
            }) as PersonRow,
        ),
      )
      .execute();
  }
}
