import type { Kysely } from 'kysely';
import { crmDb } from './db.js';
import type { StoredRecord } from './records-store.js';
import type { CoreTables } from '../../core/tables.js';
import { ownValue } from '../../core/own.js';

/** One entry of propertiesWithHistory, newest first. */
export interface HistoryEntry {
  value: string;
  timestamp: string;
  sourceType: string;
  sourceId?: string;
}

/**
 * Appends history entries for the properties a write changed. Records that came from the seed or
 * fixtures have no stored history; before their first change, their old value is stored as an
 * IMPORT entry so the history stays complete.
 */
export async function recordHistory(
  trx: Kysely<CoreTables>,
  connectorId: string,
  before: StoredRecord | null,
  after: StoredRecord,
  changed: readonly string[],
  sourceType: string,
  sourceId: string | null,
): Promise<void> {
  if (changed.length === 0) return;
  const rows = [];
  let existing = new Set<string>();
  if (before) {
    const have = await crmDb(trx)
      .selectFrom('crm_property_history')
      .select('property')
      .distinct()
      .where('connector_id', '=', connectorId)
      .where('record_id', '=', after.id)
      .where('property', 'in', changed)
      .execute();
    existing = new Set(have.map((h) => h.property));
  }
  for (const name of changed) {
    const old = before?.properties[name];
    if (before && old !== undefined && !existing.has(name)) {
      rows.push({
        connector_id: connectorId,
        record_id: after.id,
        property: name,
        value: old,
        timestamp: before.createdAt,
        source_type: 'IMPORT',
        source_id: null,
      });
    }
    rows.push({
      connector_id: connectorId,
      record_id: after.id,
      property: name,
      value: ownValue(after.properties, name) ?? '',
      timestamp: after.updatedAt,
      source_type: sourceType,
      source_id: sourceId,
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await crmDb(trx)
      .insertInto('crm_property_history')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** propertiesWithHistory for some records: stored entries newest first, or one synthesised entry for untouched values. */
export async function readHistory(
  db: Kysely<CoreTables>,
  connectorId: string,
  records: readonly StoredRecord[],
  properties: readonly string[],
  modifiedDateProp: string,
): Promise<Map<number, Record<string, HistoryEntry[]>>> {
  const out = new Map<number, Record<string, HistoryEntry[]>>();
  if (records.length === 0 || properties.length === 0) return out;
  const rows = await crmDb(db)
    .selectFrom('crm_property_history')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .where(
      'record_id',
      'in',
      records.map((r) => r.id),
    )
    .where('property', 'in', properties)
    .orderBy('seq', 'desc')
    .execute();
  for (const r of records) {
    const hist: Record<string, HistoryEntry[]> = {};
    for (const p of properties) hist[p] = [];
    out.set(r.id, hist);
  }
  for (const row of rows) {
    const entry: HistoryEntry = { value: row.value, timestamp: row.timestamp, sourceType: row.source_type };
    if (row.source_id !== null) entry.sourceId = row.source_id;
    out.get(row.record_id)![row.property]!.push(entry);
  }
  for (const r of records) {
    const hist = out.get(r.id)!;
    for (const p of properties) {
      const value = ownValue(r.properties, p);
      if (hist[p]!.length === 0 && value !== undefined) {
        hist[p]!.push({ value, timestamp: p === modifiedDateProp ? r.updatedAt : r.createdAt, sourceType: 'IMPORT' });
      }
    }
  }
  return out;
}
