import { mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Command } from 'commander';
import { FixtureFileError } from '../service/seed/read-fixtures-file.js';
import { startService, type RunningService } from '../service/start.js';
import { CredentialsFileError, readOrCreateCredentials, type LocalCredentials } from './run/credentials-file.js';
import { ExitCode } from './exit-codes.js';
import { EMBEDDED_DB, findRecipeDir } from './run/run-embedded.js';
import { parseServeFlags, ServeUsageError, type RawServeFlags } from './serve-options.js';

/** `recipe serve`: runs the embedded connector service until SIGINT/SIGTERM. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Start the embedded connector service (the Connector Data Access API on your machine).')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', '8080')
    .option(
      '--db <path>',
      `SQLite database file, or :memory: (default: the nearest ${EMBEDDED_DB}, as recipe run finds it)`,
    )
    .option('--seed <kind>', 'demo | none (default: demo when the database is new and no --fixtures, else none)')
    .option('--seed-size <n>', 'contacts in the demo CRM (other records scale from it)')
    .option('--fixtures <file>', 'load a JSON or YAML dataset (format: docs/service.md)')
    .option('--client-id <id>', 'application client id (or CONNECTOR_CLIENT_ID)')
    .option(
      '--client-secret <secret>',
      'application client secret; prefer CONNECTOR_CLIENT_SECRET (a command line shows in ps and shell history)',
    )
    .option('--rate-limit <n>', 'requests per second per token; off by default')
    .addHelpText(
      'after',
      `
Prints one line "listening on http://HOST:PORT" once it accepts requests; stops cleanly on Ctrl-C or SIGTERM.

Credentials: --client-id/--client-secret, else CONNECTOR_CLIENT_ID/CONNECTOR_CLIENT_SECRET, else the file
credentials.json next to the database (created with mode 0600 on first start; its path is printed on stderr).
Pass a secret through the environment, not --client-secret: every user of the machine sees a command line
(ps), and the shell keeps it in its history.

Examples:
  recipe serve                                   demo data in .recipe/local.db on port 8080
  recipe serve --db :memory: --port 0 --seed none   throwaway service on a free port
  recipe serve --fixtures ci/crm.yaml --db :memory:  your own dataset, e.g. in CI
  recipe serve --seed demo --seed-size 1000000 --db bench.db   a large CRM for benchmarks
  CONNECTOR_CLIENT_ID=me CONNECTOR_CLIENT_SECRET=s3cret recipe serve --port 9000`,
    )
    .action(async (flags: Omit<RawServeFlags, 'db'> & { db?: string }) => {
      process.exitCode = await serve({ ...flags, db: flags.db ?? defaultDb() });
    });
}

/** The database `recipe run` would use here: in the nearest `.recipe/` (this folder or above), else a new one here. */
function defaultDb(): string {
  const found = findRecipeDir(process.cwd());
  return found ? relative(process.cwd(), join(found, 'local.db')) : EMBEDDED_DB;
}

/** The credentials file, with a problem in it reported as a usage error (exit 2). */
function credentialsFromFile(file: string): LocalCredentials {
  try {
    return readOrCreateCredentials(file);
  } catch (err) {
    if (err instanceof CredentialsFileError) throw new ServeUsageError(err.message);
    throw err;
  }
}

async function serve(flags: RawServeFlags): Promise<number> {
  let service: RunningService;
  try {
    const opts = parseServeFlags(flags, process.env);
    const creds = opts.credentials ?? credentialsFromFile(opts.credentialsFile);
    if (opts.db !== ':memory:') mkdirSync(dirname(opts.db), { recursive: true });
    service = await startService({
      host: opts.host,
      port: opts.port,
      db: opts.db,
      seed: opts.seed,
      clientId: creds.clientId,
      clientSecret: creds.clientSecret,
      logLevel: 'error',
      ...(opts.seedSize !== undefined && { seedSize: opts.seedSize }),
      ...(opts.fixtures !== undefined && { fixtures: opts.fixtures }),
      ...(opts.rateLimit !== undefined && { rateLimit: opts.rateLimit }),
    });
    process.stderr.write(
      opts.credentials
        ? `credentials: client id ${creds.clientId} (from ${opts.credentials.source})\n`
        : `credentials: ${opts.credentialsFile} (client_id and client_secret)\n`,
    );
  } catch (err) {
    return reportStartError(err);
  }
  process.stdout.write(`listening on ${service.url}\n`);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      service.close().then(
        () => resolve(ExitCode.ok),
        (err: unknown) => {
          process.stderr.write(`recipe serve: error while stopping: ${(err as Error).message}\n`);
          resolve(ExitCode.runFailed);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** Prints why the service did not start and picks the exit code (never a stack, never a secret). */
function reportStartError(err: unknown): number {
  if (err instanceof ServeUsageError || err instanceof FixtureFileError) {
    process.stderr.write(`recipe serve: ${err.message}\n`);
    return ExitCode.invalid;
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    process.stderr.write(`recipe serve: cannot listen: ${(err as Error).message}\n`);
    return ExitCode.config;
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB') {
    process.stderr.write(`recipe serve: cannot open the database: ${(err as Error).message}\n`);
    return ExitCode.config;
  }
  process.stderr.write(`recipe serve: failed to start: ${(err as Error).message}\n`);
  return ExitCode.runFailed;
}
