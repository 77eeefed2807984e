import type { Kysely } from 'kysely';
import type { ActionDescriptor, ConnectorType } from '../../../src/service/core/connector-type.js';
import { ServiceError } from '../../../src/service/core/errors.js';
import type { Migration } from '../../../src/service/core/store.js';
import type { CoreTables } from '../../../src/service/core/tables.js';

/** The echo type's own table (a connector type declares its tables and widens the store's handle to them). */
export type EchoTables = { echo_things: { connector_id: string; id: string; label: string } };

/** A store handle (or transaction) that knows echo_things. */
export const echoDb = (db: Kysely<CoreTables>) => db.withTables<EchoTables>();

/**
 * A small connector type used only by the core service tests, so the execute pipeline (lookup,
 * validation, envelope, bytes, field selection, cascade) is tested apart from the CRM type.
 */
const action = (
  entity: string,
  name: string,
  paramsSchema: Record<string, unknown>,
  write = false,
): ActionDescriptor => ({
  entity,
  action: name,
  paramsSchema,
  requiredParams: (paramsSchema['required'] as string[] | undefined) ?? [],
  optionalParams: [],
  write,
  summary: `${entity} ${name}`,
});

export const echoMigrations: Migration[] = [
  {
    name: '900-echo-things',
    async up(db) {
      await db.schema
        .createTable('echo_things')
        .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('echo_things_pk', ['connector_id', 'id'])
        .execute();
    },
  },
];

export const echoConnector: ConnectorType = {
  definition: {
    id: '0e0e0e0e-0000-4000-8000-000000000001',
    name: 'Echo Test',
    slug: 'echo',
    iconUrl: 'https://icons.test/echo.svg',
    supportLevel: 'community',
  },
  actions: [
    action('things', 'list', {
      type: 'object',
      additionalProperties: false,
      properties: { limit: { type: 'integer', minimum: 1, maximum: 10, default: 5 } },
    }),
    action(
      'things',
      'create',
      {
        type: 'object',
        additionalProperties: false,
        required: ['properties'],
        properties: {
          properties: {
            type: 'object',
            additionalProperties: false,
            required: ['label'],
            properties: { label: { type: 'string', minLength: 1 }, kind: { enum: ['a', 'b'] } },
          },
        },
      },
      true,
    ),
    action('files', 'download', {
      type: 'object',
      additionalProperties: false,
      required: ['file_id'],
      properties: { file_id: { type: 'string' } },
    }),
    action('files', 'boom', { type: 'object' }),
  ],
  async execute(ctx, entity, act, params) {
    const db = echoDb(ctx.store.db);
    if (entity === 'things' && act === 'list') {
      const rows = await db
        .selectFrom('echo_things')
        .select(['id', 'label'])
        .where('connector_id', '=', ctx.connector.id)
        .orderBy('id')
        .limit(params['limit'] as number)
        .execute();
      return {
        kind: 'json',
        result: rows.map((r) => ({
          id: r.id,
          properties: { label: r.label, secret: 'x' },
          meta: { limit: params['limit'] },
        })),
        connectorMetadata: { has_next_page: false },
      };
    }
    if (entity === 'things' && act === 'create') {
      const props = params['properties'] as { label: string };
      const id = await ctx.store.transaction(async (trx) => {
        const n = await echoDb(trx)
          .selectFrom('echo_things')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('connector_id', '=', ctx.connector.id)
          .executeTakeFirstOrThrow();
        const newId = String(Number(n.n) + 1);
        await echoDb(trx)
          .insertInto('echo_things')
          .values({ connector_id: ctx.connector.id, id: newId, label: props.label })
          .execute();
        return newId;
      });
      ctx.notifyChange('things', [id]);
      return {
        kind: 'json',
        result: { id, properties: props, createdAt: ctx.now().toISOString() },
        connectorMetadata: {},
      };
    }
    if (entity === 'files' && act === 'download') {
      const fileId = params['file_id'] as string;
      if (fileId === 'missing') throw new ServiceError('H404', { message: `file ${fileId} not found` });
      const body = fileId === 'empty' ? Buffer.alloc(0) : Buffer.from(`content of ${fileId}`);
      return { kind: 'bytes', body, contentType: 'text/plain; charset=utf-8', filename: `${fileId}.txt` };
    }
    throw new Error('SELECT secret FROM boom -- internal failure with a stack');
  },
  async seedDemo(ctx, opts) {
    for (let i = 1; i <= opts.size; i++) {
      await echoDb(ctx.store.db)
        .insertInto('echo_things')
        .values({ connector_id: ctx.connector.id, id: String(i), label: `demo ${i}` })
        .execute();
    }
  },
  async loadFixtures(ctx, data) {
    if (!Array.isArray(data) || !data.every((d) => typeof d === 'string')) {
      throw new ServiceError('H400', { message: 'data must be an array of labels' }, { field: 'data' });
    }
    for (const [i, label] of data.entries()) {
      await echoDb(ctx.store.db)
        .insertInto('echo_things')
        .values({ connector_id: ctx.connector.id, id: String(i + 1), label })
        .execute();
    }
  },
};
