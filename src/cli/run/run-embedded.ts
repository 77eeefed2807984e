import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { RecipeError } from '../../errors/index.js';
import type { RunningService } from '../../service/start.js';
import { CredentialsFileError, readOrCreateCredentials, type LocalCredentials } from './credentials-file.js';

/** The folder that holds the embedded service's data, found like git finds `.git`. */
export const RECIPE_DIR = '.recipe';

/** Where `recipe run` keeps the embedded service's data when no service URL is configured (relative form). */
export const EMBEDDED_DB = `${RECIPE_DIR}/local.db`;

/** What the embedded service should hold and where (all optional: the default is the local demo database). */
export interface EmbeddedOptions {
  /** --db PATH or :memory:; default: `.recipe/local.db` in the nearest folder that has `.recipe/`, else in cwd. */
  readonly db?: string;
  /** --fixtures FILE: that dataset only (no demo data); the database defaults to :memory:. */
  readonly fixtures?: string;
  /** --now: the service's clock stands still at this instant (every record it writes is stamped with it). */
  readonly nowMs?: number;
}

/** A started embedded service and the words that say which database it uses. */
export interface Embedded {
  readonly service: RunningService;
  /** e.g. "database .recipe/local.db", "in memory, fixtures ci/crm.yaml" */
  readonly what: string;
}

/**
 * The nearest `.recipe/` folder in `cwd` or its ancestors, so that a run from a subfolder uses the project's
 * database instead of silently seeding a fresh one; undefined when there is none.
 */
export function findRecipeDir(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, RECIPE_DIR);
    if (isDirectory(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Starts the embedded connector service in-process on 127.0.0.1. With a database file, its credentials live
 * in credentials.json next to it, the same file `recipe serve` uses, so both see the same organization and
 * data; an in-memory database gets random credentials.
 */
export async function startEmbedded(cwd: string, opts: EmbeddedOptions = {}): Promise<Embedded> {
  const db = opts.db ?? (opts.fixtures !== undefined ? ':memory:' : defaultDb(cwd));
  const memory = db === ':memory:';
  if (opts.fixtures !== undefined && !existsSync(resolve(cwd, opts.fixtures)))
    throw new RecipeError('I006', { file: opts.fixtures, reason: 'no such file' });
  let creds: LocalCredentials | undefined;
  if (!memory) {
    mkdirSync(dirname(db), { recursive: true });
    creds = credentialsFromFile(join(dirname(db), 'credentials.json'));
  }
  // Loaded here, not at the top: a run against a configured service should not pay for loading the service.
  const { startService } = await import('../../service/start.js');
  const { FixtureFileError } = await import('../../service/seed/read-fixtures-file.js');
  let service: RunningService;
  try {
    service = await startService({
      db,
      seed: seedFor(opts, db),
      ...(opts.fixtures !== undefined ? { fixtures: resolve(cwd, opts.fixtures) } : {}),
      ...(creds ? { clientId: creds.clientId, clientSecret: creds.clientSecret } : {}),
      ...(opts.nowMs !== undefined ? { now: frozen(opts.nowMs) } : {}),
      logLevel: 'silent',
    });
  } catch (err) {
    if (err instanceof FixtureFileError)
      throw new RecipeError('I006', { file: opts.fixtures ?? err.file, reason: fixtureReason(err) });
    throw err;
  }
  const where = memory ? 'in memory' : `database ${shownPath(cwd, db, opts.db !== undefined)}`;
  return { service, what: opts.fixtures !== undefined ? `${where}, fixtures ${opts.fixtures}` : where };
}

/**
 * Demo data for the default database, every time: seeding skips types that already have a connector, and
 * finishes the seed of a first run that was interrupted (Ctrl-C while seeding) instead of running on half the
 * data. A database named with --db gets it only when new, so a file made with --fixtures stays that dataset.
 */
function seedFor(opts: EmbeddedOptions, db: string): 'demo' | 'none' {
  if (opts.fixtures !== undefined) return 'none';
  if (opts.db === undefined || db === ':memory:') return 'demo';
  return existsSync(db) ? 'none' : 'demo';
}

function defaultDb(cwd: string): string {
  return join(findRecipeDir(cwd) ?? join(resolve(cwd), RECIPE_DIR), 'local.db');
}

/** As the user typed it (--db), else relative to the working directory (a found `.recipe/` may be above it). */
function shownPath(cwd: string, db: string, given: boolean): string {
  if (given || !isAbsolute(db)) return db;
  return relative(cwd, db) || db;
}

function frozen(ms: number): () => Date {
  return () => new Date(ms);
}

/** The fixture error's message without the file name it starts with (the I006 template names the file). */
function fixtureReason(err: Error & { file: string }): string {
  const prefix = `${err.file}`;
  const msg = err.message.startsWith(prefix) ? err.message.slice(prefix.length).replace(/^:\s*/, '') : err.message;
  return msg.replace(/^ at /, 'at ');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The credentials file, with a problem in it reported as a configuration error (exit 3). */
function credentialsFromFile(file: string): LocalCredentials {
  try {
    return readOrCreateCredentials(file);
  } catch (err) {
    if (err instanceof CredentialsFileError) throw new RecipeError('C001', { reason: err.message });
    throw err;
  }
}
