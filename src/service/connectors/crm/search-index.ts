/**
 * The indexes behind api_search, and the SQL functions they are built from. Every filter runs in SQL
 * (actions/search-filter.ts); these make the common ones seek instead of scan:
 *
 * - one expression index per filterable property of each searchable entity (the properties its context
 *   store fields name): (connector_id, crm_num(value), crm_key(value), id), only over live records of that
 *   entity. crm_num is the value as a number when it reads as one, crm_key the case-folded text: numbers
 *   seek on the first, text and dates (stored normalised, so text order is time order) on the second.
 * - a full-text table of tokens (crm_fts), kept by triggers on crm_records, so CONTAINS_TOKEN finds its
 *   candidates by one term lookup; each term names the entity and property it came from.
 *
 * The functions are SQLite user functions (crm_key, crm_num, crm_cmp, crm_token, crm_fts_body): the
 * database needs them registered to write records (the indexes and triggers call them), which the store
 * does on open (ConnectorType.sqlFunctions). A PostgreSQL store would define the same functions in SQL.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Migration, SqlFunction, SqlValue } from '../../core/store.js';
import {
  ENTITIES,
  SEARCHABLE_ENTITIES,
  type PropertyKind,
  type RecordEntity,
  type SearchableEntity,
} from './entities.js';
import { compareValues, containsToken, foldedKey, numericValue, tokensOf } from './search-semantics.js';

const isSearchable = (t: string): t is SearchableEntity => (SEARCHABLE_ENTITIES as readonly string[]).includes(t);

/** The properties of an entity that get an index: its context store fields, less the id and long text. */
export function indexedProperties(entity: SearchableEntity): string[] {
  return ENTITIES[entity].contextProperties.filter((p) => p !== 'hs_object_id' && p !== 'content');
}

/** The kind of a standard entity's property (dates of the entity included); undefined for plain text. */
export function propertyKind(entity: RecordEntity, property: string): PropertyKind | undefined {
  const e = ENTITIES[entity];
  if (property === e.createDateProp || property === e.modifiedDateProp) return 'datetime';
  if (property === 'hs_object_id') return 'integer';
  return Object.hasOwn(e.kinds, property) ? e.kinds[property] : undefined;
}

/** JSON path of a property for json_extract, or null when the name cannot be written safely as one. */
export function propertyPath(property: string): string | null {
  return /^[A-Za-z0-9_.-]+$/.test(property) ? `$."${property}"` : null;
}

/**
 * The SQL of a property's stored value, crm_key and crm_num over crm_records (no table alias: the
 * expression must read exactly as in the index for SQLite to use it). An unwritable name is NULL.
 */
export function propertyExprs(property: string): {
  value: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  num: RawBuilder<unknown>;
} {
  const path = propertyPath(property);
  const value = path === null ? sql`NULL` : sql`json_extract(properties, ${sql.lit(path)})`;
  return { value, key: sql`crm_key(${value})`, num: sql`crm_num(${value})` };
}

/** A 32-bit FNV-1a hash in hex: names (entity, property) inside full-text terms. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The full-text term of a token of one property of one entity: letters and digits only (the token's UTF-8
 * bytes in hex), so the FTS tokenizer keeps it whole and a token's prefix is the term's prefix.
 */
export function ftsTerm(entity: string, property: string, token: string): string {
  return `t${fnv1a(`${entity}\u0000${property}`)}x${Buffer.from(token, 'utf8').toString('hex')}`;
}

/** The full-text body of a record: the terms of every token of its plain-text properties. */
function ftsBody(entity: string, propertiesJson: string): string {
  if (!isSearchable(entity)) return '';
  const props = JSON.parse(propertiesJson) as Record<string, unknown>;
  const terms: string[] = [];
  for (const [name, v] of Object.entries(props)) {
    if (typeof v !== 'string' || v === '' || propertyKind(entity, name) !== undefined) continue;
    for (const t of tokensOf(v)) terms.push(ftsTerm(entity, name, t));
  }
  return terms.join(' ');
}

const text = (v: SqlValue): string | null => (typeof v === 'string' ? v : v === null ? null : String(v));

/** The SQL functions of the CRM connector (see the file comment). */
export const crmSqlFunctions: readonly SqlFunction[] = [
  { name: 'crm_key', deterministic: true, fn: (v) => foldedKey(text(v ?? null)) },
  {
    name: 'crm_num',
    deterministic: true,
    fn: (v) => {
      const s = text(v ?? null);
      return s === null || s === '' ? null : numericValue(s);
    },
  },
  {
    // crm_cmp(stored, given, kind): -1, 0 or 1 as compareValues; NULL for an absent stored value.
    name: 'crm_cmp',
    deterministic: true,
    fn: (stored, given, kind) => {
      const s = text(stored ?? null);
      if (s === null || s === '') return null;
      return compareValues((text(kind ?? null) ?? undefined) as PropertyKind | undefined, s, text(given ?? null) ?? '');
    },
  },
  {
    name: 'crm_token',
    deterministic: true,
    fn: (stored, pattern) => {
      const s = text(stored ?? null);
      return s !== null && s !== '' && containsToken(s, text(pattern ?? null) ?? '') ? 1 : 0;
    },
  },
  {
    name: 'crm_fts_body',
    deterministic: true,
    fn: (entity, properties) => ftsBody(text(entity ?? null) ?? '', text(properties ?? null) ?? '{}'),
  },
];

const searchableList = SEARCHABLE_ENTITIES.map((e) => `'${e}'`).join(', ');

/** The api_search indexes: see the file comment. They sort after the CRM tables (010–014). */
export const crmSearchMigrations: readonly Migration[] = [
  {
    name: '015-crm-search-indexes',
    async up(db: Kysely<object>): Promise<void> {
      for (const entity of SEARCHABLE_ENTITIES) {
        for (const property of indexedProperties(entity)) {
          const { num, key } = propertyExprs(property);
          await sql`CREATE INDEX ${sql.id(`crm_search_${entity}_${property}`)} ON crm_records (connector_id, ${num}, ${key}, id) WHERE object_type = ${sql.lit(entity)} AND archived = 0`.execute(
            db,
          );
        }
      }
    },
  },
  {
    name: '016-crm-search-tokens',
    async up(db: Kysely<object>): Promise<void> {
      // rowid = crm_records.rowid; contentless, the terms are only looked up. The triggers keep it in step
      // with every write, the bulk seed's and the cascade of a deleted connector included.
      await sql`CREATE VIRTUAL TABLE crm_fts USING fts5(body, content='', contentless_delete=1, tokenize='unicode61')`.execute(
        db,
      );
      const when = sql.raw(`object_type IN (${searchableList})`);
      await sql`CREATE TRIGGER crm_fts_insert AFTER INSERT ON crm_records WHEN new.${when} BEGIN
        INSERT INTO crm_fts (rowid, body) VALUES (new.rowid, crm_fts_body(new.object_type, new.properties));
      END`.execute(db);
      await sql`CREATE TRIGGER crm_fts_update AFTER UPDATE OF properties, object_type ON crm_records
        WHEN old.${when} OR new.${when} BEGIN
        DELETE FROM crm_fts WHERE rowid = old.rowid;
        INSERT INTO crm_fts (rowid, body) SELECT new.rowid, crm_fts_body(new.object_type, new.properties) WHERE new.${when};
      END`.execute(db);
      await sql`CREATE TRIGGER crm_fts_delete AFTER DELETE ON crm_records WHEN old.${when} BEGIN
        DELETE FROM crm_fts WHERE rowid = old.rowid;
      END`.execute(db);
      await sql`INSERT INTO crm_fts (rowid, body) SELECT rowid, crm_fts_body(object_type, properties) FROM crm_records WHERE ${when}`.execute(
        db,
      );
    },
  },
  {
    // Fixed planner statistics for crm_records (SQLite's documented way to pin plans): without any, the
    // planner sees the type index (connector, entity, archived) and a property index as equally selective
    // and picks the type index to avoid sorting by id, i.e. it reads every record of the entity. These say
    // what is true of any real CRM: a property value names a few records, an entity very many. Fixed, not
    // measured (no ANALYZE), so plans do not change with the data. A later migration that adds an index
    // on crm_records adds its row here.
    name: '017-crm-search-plan-statistics',
    async up(db: Kysely<object>): Promise<void> {
      // ANALYZE of a tiny table creates sqlite_stat1 when it does not exist yet.
      await sql`ANALYZE crm_id_sequence`.execute(db);
      await sql`DELETE FROM sqlite_stat1 WHERE tbl = 'crm_records'`.execute(db);
      const stats: [string, string][] = [
        ['sqlite_autoindex_crm_records_1', '1000000 100000 1'],
        ['crm_records_type', '1000000 100000 10000 10000 1'],
        ['crm_records_email', '100000 10000 1'],
      ];
      for (const entity of SEARCHABLE_ENTITIES)
        for (const property of indexedProperties(entity))
          stats.push([`crm_search_${entity}_${property}`, '100000 10000 10000 3 1']);
      for (const [idx, stat] of stats)
        await sql`INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('crm_records', ${idx}, ${stat})`.execute(db);
      // Loads the statistics into this connection (others read them when they open).
      await sql`ANALYZE sqlite_schema`.execute(db);
    },
  },
];
