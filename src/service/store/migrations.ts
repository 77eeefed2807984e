import type { Kysely } from 'kysely';
import type { Migration } from '../core/store.js';

const MIGRATIONS_TABLE = 'schema_migrations';
type MigrationsTable = { [MIGRATIONS_TABLE]: { name: string; applied_at: string } };

/**
 * Applies every migration not applied yet, in name order, each in its own transaction, and records its
 * name so it runs once. Duplicate names are a programming error and fail before anything runs.
 */
export async function runMigrations(root: Kysely<object>, migrations: readonly Migration[]): Promise<string[]> {
  const db = root.withTables<MigrationsTable>();
  const seen = new Set<string>();
  for (const m of migrations) {
    if (seen.has(m.name)) throw new Error(`duplicate migration name "${m.name}"`);
    seen.add(m.name);
  }
  await db.schema
    .createTable(MIGRATIONS_TABLE)
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
  const rows = await db.selectFrom(MIGRATIONS_TABLE).select('name').execute();
  const applied = new Set(rows.map((r) => r.name));
  const pending = [...migrations].filter((m) => !applied.has(m.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const m of pending) {
    await root.transaction().execute(async (trx) => {
      await m.up(trx);
      await trx
        .withTables<MigrationsTable>()
        .insertInto(MIGRATIONS_TABLE)
        .values({ name: m.name, applied_at: new Date().toISOString() })
        .execute();
    });
  }
  return pending.map((m) => m.name);
}
