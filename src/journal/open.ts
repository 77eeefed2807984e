import { join, resolve } from 'node:path';
import { isPostgresUrl } from './postgres/client.js';
import type { PostgresJournalStore, PostgresJournalOptions } from './postgres/store.js';
import { SqliteJournalStore } from './sqlite/store.js';
import type { JournalReader, JournalStore } from './types.js';

/** Where runs are journaled when nothing says otherwise: `.recipe/runs.db` in the working directory. */
export const DEFAULT_JOURNAL = '.recipe/runs.db';

/** The environment variable that moves the journal (a path). */
export const JOURNAL_ENV = 'RECIPE_JOURNAL';

/**
 * The journal's path: the flag, else RECIPE_JOURNAL, else runs.db in `recipeDir` (the project's `.recipe/`
 * folder, found like git finds `.git`), else the default in `cwd`. Relative paths are resolved against
 * `cwd`; ':memory:' stays as it is: a private journal that ends with the process. (A journal on
 * PostgreSQL is named by a URL, not a path: see isJournalUrl and openPostgresJournal.)
 */
export function journalPath(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  recipeDir?: string,
): string {
  const given = flag ?? (env[JOURNAL_ENV] || undefined);
  if (given === ':memory:') return given;
  if (given !== undefined) return resolve(cwd, given);
  return recipeDir !== undefined ? join(recipeDir, 'runs.db') : resolve(cwd, DEFAULT_JOURNAL);
}

/** Opens the journal at `path` (the SQLite backend); J007 when it cannot be opened. */
export function openJournal(path: string): JournalStore {
  return SqliteJournalStore.open(path);
}

/** Opens an existing journal for reading only (a console): J007 when it does not exist or cannot be read. */
export function openJournalReader(path: string): JournalReader {
  return SqliteJournalStore.openReadOnly(path);
}

/** True when `where` names a journal on PostgreSQL (postgres://… or postgresql://…) rather than a file. */
export function isJournalUrl(where: string): boolean {
  return isPostgresUrl(where);
}

/**
 * Opens the journal on the PostgreSQL database at `url` (its own schema, default recipe_journal, migrated on
 * open: safe with several workers starting at once); J007 with PostgreSQL's reason when it cannot.
 */
export async function openPostgresJournal(
  url: string,
  options: PostgresJournalOptions = {},
): Promise<PostgresJournalStore> {
  // Loaded here: a run on a SQLite journal (open.ts is what it loads) never parses the fleet's backends.
  const { PostgresJournalStore } = await import('./postgres/store.js');
  return PostgresJournalStore.open(url, options);
}
