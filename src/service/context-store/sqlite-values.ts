import { sql, type Kysely } from 'kysely';

/**
 * The value table as migration 034 made it (kept so that later migrations run on the table they were written
 * for): WITHOUT ROWID, primary key (connector, entity, id, field), one secondary index for eq/in/range and
 * ordered scans.
 */
export async function createValuesTableV2(db: Kysely<object>): Promise<void> {
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

/**
 * The value table in SQLite's compact form, keyed by integers: `doc` is the document's cs_docs rowid and
 * `fid` names (connector, entity, field) in cs_fields. WITHOUT ROWID, so the primary key (doc, fid) is the
 * table itself and serves per-document probes and sort joins (a build appends to it, as rowids grow), and one
 * secondary index (fid, kind, num, text, doc) serves eq/in/range and ordered scans. Integers where the
 * connector id, entity and field name were repeated in both b-trees of every row make each row about a third
 * of its former size. SQLite-specific (WITHOUT ROWID): PostgreSQL gets its own file.
 */
export async function createValuesTable(db: Kysely<object>): Promise<void> {
  await sql`CREATE TABLE cs_fields (
    fid INTEGER PRIMARY KEY,
    connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
    entity TEXT NOT NULL,
    field TEXT NOT NULL,
    UNIQUE (connector_id, entity, field)
  )`.execute(db);
  await sql`CREATE TABLE cs_values (
    doc INTEGER NOT NULL REFERENCES cs_docs(rowid) ON DELETE CASCADE,
    fid INTEGER NOT NULL REFERENCES cs_fields(fid) ON DELETE CASCADE,
    kind INTEGER NOT NULL,
    num REAL NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (doc, fid)
  ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX cs_values_sort ON cs_values (fid, kind, num, text, doc)`.execute(db);
}
