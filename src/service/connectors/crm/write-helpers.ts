import type { Kysely } from 'kysely';
import { ServiceError } from '../../core/errors.js';
import type { ActionContext, ActionResult } from '../../core/connector-type.js';
import { isRecordEntity } from './entities.js';
import type { ObjectType } from './object-types.js';
import { jsonResult } from './paging.js';
import { renderRecords } from './record-view.js';
import { findContactByEmail, type StoredRecord } from './records-store.js';
import type { CoreTables } from '../../core/tables.js';

/**
 * Records a write touched, by entity: recorded in the change outbox inside the write's transaction
 * (record), then announced after the commit (notify), so the context store catches up promptly and
 * also after a crash between the two.
 */
export class Touched {
  private readonly byEntity = new Map<string, Set<string>>();
  /** Notes one record; custom object types are not indexed by the context store and are skipped. */
  add(type: string, id: number): void {
    if (!isRecordEntity(type)) return;
    let set = this.byEntity.get(type);
    if (!set) this.byEntity.set(type, (set = new Set()));
    set.add(String(id));
  }
  /** Writes the touched ids to the change outbox; call inside the write's transaction, after the writes. */
  async record(ctx: ActionContext, trx: Kysely<CoreTables>): Promise<void> {
    if (!ctx.recordChanges) return;
    for (const [entity, ids] of this.byEntity) await ctx.recordChanges(trx, entity, [...ids]);
  }
  /** Calls ctx.notifyChange once per entity; only after the transaction committed. */
  notify(ctx: ActionContext): void {
    for (const [entity, ids] of this.byEntity) ctx.notifyChange(entity, [...ids]);
  }
}

/** 409 when another contact already holds this email (case-insensitive). */
export async function assertEmailFree(
  trx: Kysely<CoreTables>,
  connectorId: string,
  email: string | undefined,
  selfId: number,
): Promise<void> {
  if (!email) return;
  const existing = await findContactByEmail(trx, connectorId, email);
  if (existing !== null && existing !== selfId) {
    throw new ServiceError(
      'H409',
      { message: `Contact already exists. Existing ID: ${existing}` },
      { field: 'params.properties.email', details: { existingId: String(existing) } },
    );
  }
}

/** A unique-index violation on the contact email: a race the explicit check (assertEmailFree) missed. */
function isEmailConflict(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return typeof e?.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && /email_key/.test(e.message ?? '');
}

/**
 * One record write (create or update): `write` runs in one transaction and records what it touched (an email
 * race there is the 409 too); after the commit the change is announced and the record is answered as the API
 * shows it, with the properties it holds.
 */
export async function writeRecord(
  ctx: ActionContext,
  type: ObjectType,
  touched: Touched,
  write: (trx: Kysely<CoreTables>) => Promise<StoredRecord>,
): Promise<ActionResult> {
  let rec: StoredRecord;
  try {
    rec = await ctx.store.transaction(write);
  } catch (err) {
    if (isEmailConflict(err))
      throw new ServiceError('H409', { message: 'Contact already exists' }, { field: 'params.properties.email' });
    throw err;
  }
  touched.notify(ctx);
  const [out] = await renderRecords(ctx.store.db, ctx.connector.id, type, [rec], {
    properties: Object.keys(rec.properties),
    propertiesWithHistory: null,
    associations: null,
  });
  return jsonResult(out, {});
}
