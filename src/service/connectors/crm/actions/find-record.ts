import type { Kysely } from 'kysely';
import { ServiceError } from '../../../core/errors.js';
import type { ObjectType } from '../object-types.js';
import { findByProperty, findContactByEmail, getRecord, type StoredRecord } from '../records-store.js';
import type { CoreTables } from '../../../core/tables.js';

/** How a caller names a record: its id, or a unique property value (idProperty). */
export interface RecordLookup {
  readonly value: string;
  /** The params key that held the value, for error fields (e.g. "contactId"). */
  readonly field: string;
  readonly idProperty?: string | undefined;
  /** false = live records only, true = archived only. */
  readonly archived: boolean;
}

/** Finds a record by id or idProperty, or throws 404 (400 for an idProperty that is not unique). */
export async function findRecord(
  db: Kysely<CoreTables>,
  connectorId: string,
  type: ObjectType,
  lookup: RecordLookup,
): Promise<StoredRecord> {
  const rec = await lookupRecord(db, connectorId, type, lookup);
  if (!rec) {
    const by =
      lookup.idProperty && lookup.idProperty !== 'hs_object_id'
        ? ` with ${lookup.idProperty} "${lookup.value}"`
        : ` "${lookup.value}"`;
    throw new ServiceError(
      'H404',
      { message: `${lookup.archived ? 'archived ' : ''}${type.singular} record${by} not found in ${type.key}` },
      { field: `params.${lookup.field}`, details: { objectType: type.key, id: lookup.value } },
    );
  }
  return rec;
}

async function lookupRecord(
  db: Kysely<CoreTables>,
  connectorId: string,
  type: ObjectType,
  lookup: RecordLookup,
): Promise<StoredRecord | null> {
  const prop = lookup.idProperty;
  if (prop !== undefined && prop !== 'hs_object_id') {
    if (!type.uniqueProperties.includes(prop)) {
      throw new ServiceError(
        'H400_INVALID_ID_PROPERTY',
        { property: prop, type: type.key, allowed: type.uniqueProperties.join(', ') },
        { field: 'params.idProperty', details: { allowed: type.uniqueProperties } },
      );
    }
    if (type.key === 'contacts' && prop === 'email') {
      const id = await findContactByEmail(db, connectorId, lookup.value);
      return id === null ? null : getRecord(db, connectorId, type.key, id, lookup.archived);
    }
    return findByProperty(db, connectorId, type.key, prop, lookup.value, lookup.archived);
  }
  // Ids are numeric strings; anything else cannot name a record (upstream answers 404 too).
  if (!/^\d{1,15}$/.test(lookup.value)) return null;
  return getRecord(db, connectorId, type.key, Number(lookup.value), lookup.archived);
}
