import { createHash } from 'node:crypto';
import { ServiceError } from '../core/errors.js';
import type { Migration, Store } from '../core/store.js';

/** How long a key's first answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Printable ASCII without spaces, 1 to 255 characters (Stripe's and the IETF draft's limits). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The table that holds each key's first answer, per organization. */
export const idempotencyMigrations: readonly Migration[] = [
  {
    name: '040-idempotency-keys',
    async up(db) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('organization_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['organization_id', 'key'])
        .execute();
      await db.schema
        .createIndex('idempotency_keys_by_age')
        .on('idempotency_keys')
        .columns(['organization_id', 'created_at'])
        .execute();
    },
  },
];

/** The table this module adds to the store (migration 040). */
type IdempotencyTables = {
  idempotency_keys: {
    organization_id: string;
    key: string;
    request_hash: string;
    status: number;
    body: string;
    created_at: number;
  };
};

/** The request's Idempotency-Key header: undefined when absent, a 400 when it is not a usable key. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !KEY_PATTERN.test(key)) {
    throw new ServiceError('H400_INVALID_IDEMPOTENCY_KEY', {}, { field: 'header.idempotency-key' });
  }
  return key;
}

/** What a write answered (JSON), as stored and replayed. */
export interface StoredAnswer {
  readonly status: number;
  readonly body: string;
  /** True when this is the stored first answer of an earlier request with the same key. */
  readonly replayed: boolean;
}

/**
 * Runs a write at most once per (organization, key) within 24 h. The action runs inside one transaction
 * together with the record of its answer, so that a write and its key are committed together or not at all:
 * a service killed mid-request leaves either both (a repeat gets the stored answer) or neither (a repeat
 * writes). `act` gets a store whose transactions join that one. Only successful answers are stored: a write
 * that failed changed nothing, and the same key may be sent again. The same key with another request body
 * (or connector) is a 422, idempotency_key_reused. Requests with the same key wait for each other (the
 * store's single connection serialises the transactions), so a concurrent repeat replays the first answer.
 */
export async function executeOnce(
  store: Store,
  organizationId: string,
  key: string,
  request: unknown,
  now: Date,
  act: (store: Store) => Promise<{ status: number; body: string }>,
): Promise<StoredAnswer> {
  const requestHash = hashRequest(request);
  const at = now.getTime();
  return store.transaction(async (trx) => {
    const db = trx.withTables<IdempotencyTables>();
    // Keys older than a day are forgotten (the index makes this a seek when there is nothing to delete).
    await db
      .deleteFrom('idempotency_keys')
      .where('organization_id', '=', organizationId)
      .where('created_at', '<', at - IDEMPOTENCY_TTL_MS)
      .execute();
    const found = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'body'])
      .where('organization_id', '=', organizationId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (found) {
      if (found.request_hash !== requestHash)
        throw new ServiceError(
          'H422_IDEMPOTENCY_KEY_REUSED',
          {},
          { field: 'header.idempotency-key', details: { key } },
        );
      return { status: found.status, body: found.body, replayed: true };
    }
    const joined: Store = {
      dialect: store.dialect,
      db: trx,
      transaction: (fn) => fn(trx),
      // Inside the transaction nothing may be cached on the strength of a token.
      changeToken: () => undefined,
      close: async () => undefined,
    };
    const answer = await act(joined);
    await db
      .insertInto('idempotency_keys')
      .values({
        organization_id: organizationId,
        key,
        request_hash: requestHash,
        status: answer.status,
        body: answer.body,
        created_at: at,
      })
      .execute();
    return { ...answer, replayed: false };
  });
}

/** SHA-256 of the request with object keys sorted, so the same request always hashes the same. */
function hashRequest(request: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(sortKeys(request)))
    .digest('hex');
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
  return out;
}
