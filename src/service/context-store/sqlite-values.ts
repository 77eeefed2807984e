import { sql, type Kysely } from 'kysely';

/**
 * The value table in SQLite's compact form: WITHOUT ROWID, so the primary key (connector, entity, id,
 * field) is the table itself and serves per-document probes and sort joins, and one secondary index
 * (field, kind, num, text, id) serves eq/in/range and ordered scans. Two b-trees per row instead of four
 * make indexing about twice as fast. SQLite-specific (WITHOUT ROWID): PostgreSQL gets its own file.
 */
export async function createValuesTable(db: Kysely<object>): Promise<void> {
  await sql`CREATE TABLE cs_values (
    connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
    entity TEXT NOT NULL,
    id TEXT NOT NULL,
    field TEXT NOT NULL,
    kind INTEGER NOT NULL,
    num REAL NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (connector_id, entity, id, field)
  ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX cs_values_sort ON cs_values (connector_id, entity, field, kind, num, text, id)`.execute(db);
}
