import type { Kysely } from 'kysely';
import { randomSecret } from '../core/secrets.js';
import type { CoreTables } from '../core/tables.js';

const JWT_KEY_ID = 'jwt-hs256';

/**
 * The HS256 secret that signs application tokens: generated at first start and stored, so tokens
 * stay valid across restarts of a file-backed service.
 */
export async function loadOrCreateSigningKey(db: Kysely<CoreTables>, now: Date): Promise<Uint8Array> {
  await db
    .insertInto('signing_keys')
    .values({ id: JWT_KEY_ID, algorithm: 'HS256', secret: randomSecret(32), created_at: now.toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await db
    .selectFrom('signing_keys')
    .select('secret')
    .where('id', '=', JWT_KEY_ID)
    .executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(row.secret, 'base64url'));
}
