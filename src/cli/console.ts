import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
// config.ts, not the client's index: undici (the client) is loaded when the service page first needs it.
import { completeConnectionConfig, readConnectionConfig } from '../client/config.js';
import {
  ConsoleUsageError,
  fleetActions,
  readTlsFiles,
  TlsFileError,
  type ConsoleTls,
  journalFileActions,
  journalFileSource,
  startConsole,
  type ConsoleActions,
  type JournalSource,
  type RunningConsole,
  type ServiceSource,
} from '../console/server.js';
import type { ConnectorClient } from '../client/index.js';
import { RecipeError } from '../errors/index.js';
import { journalPath } from '../journal/index.js';
import type { RunningService } from '../service/start.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import { FLEET_HELP, fleetStoreTarget } from './fleet/fleet-flags.js';
import { redactUrl } from '../fleet/fleet-store.js';
import { collect } from './options.js';
import { EMBEDDED_DB, findRecipeDir, startEmbedded } from './run/run-embedded.js';
import { version } from './version.js';

interface ConsoleFlags {
  host: string;
  port: string;
  baseUrl?: string;
  token?: string;
  recipes?: string[];
  journal?: string;
  redis?: string;
  postgres?: string;
  queue?: string;
  tlsCert?: string;
  tlsKey?: string;
}

/** `recipe console`: the web console (runs, recipes, the service) until Ctrl-C. */
export function registerConsole(program: Command): void {
  program
    .command('console')
    .description(
      'serve the web console: runs from the journal, recipes drawn as graphs, the connector service and its context store',
    )
    .option('--host <host>', 'interface to listen on (any other than loopback needs a token)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', '8090')
    .option(
      '--base-url <url>',
      'connector service for the service page (else CONNECTOR_API_URL, else the embedded one)',
    )
    .option(
      '--token <token>',
      'require this token from every request (or RECIPE_CONSOLE_TOKEN; at least 16 characters)',
    )
    .option('--journal <path>', 'the run journal the runs pages read (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--redis <url>', "the runs pages read a fleet's runs (its journal on this Redis) instead of a journal file")
    .option('--postgres <url>', "the runs pages read a fleet's runs from its journal in this PostgreSQL instead")
    .option('--queue <name>', 'with --redis/--postgres: the queue (default recipe-runs)')
    .option(
      '--recipes <dir>',
      'a folder of recipes the recipe pages may open (repeatable; default ./recipes, else .)',
      collect,
    )
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (chain); needs --tls-key')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .addHelpText(
      'after',
      `
Prints one line "console at http://HOST:PORT/" once it accepts requests; stops on Ctrl-C or SIGTERM.
On 127.0.0.1 (the default) no token is needed and only loopback host names are answered. On any other
host a token is required: --token or RECIPE_CONSOLE_TOKEN, else a random one is made and the printed URL
carries it (open it once: the browser keeps the token in a cookie).

Actions: a run page cancels a running run (as \`recipe cancel\`) and, on a fleet, redrives a failed or
cancelled one (as \`recipe resume --redis\`); /schedules pauses and resumes a fleet's schedules; a recipe
page submits the recipe to the fleet (as \`recipe submit\`; the first --recipes folder is taken for the
workers' --recipes). Each is a
POST that needs the token (when there is one), a same-origin request and the CSRF token the pages get from
/api/info (X-Recipe-CSRF); each writes an audit line on stderr. docs/console.md says more.

Examples:
  recipe console                                   http://127.0.0.1:8090/
  recipe console --port 0 --recipes ops/recipes    any free port, another recipe folder
  recipe console --journal ci/runs.db              the runs of another journal
  recipe console --redis redis://127.0.0.1:6379    the runs of a fleet (docs/fleet.md)
  recipe console --postgres postgres://recipe@127.0.0.1:5432/recipe   the runs of a fleet on PostgreSQL
  RECIPE_CONSOLE_TOKEN=... recipe console --host 0.0.0.0   reachable from other machines, with a token
  RECIPE_CONSOLE_TOKEN=... recipe console --host 0.0.0.0 --tls-cert cert.pem --tls-key key.pem
                                                   the same over HTTPS (the token cookie is then Secure)

Off loopback, serve HTTPS: --tls-cert/--tls-key (read once at start; a missing, unreadable or mismatched
file exits 3), or keep the console on 127.0.0.1 behind a reverse proxy that terminates TLS (nginx, Caddy;
docs/console.md shows both). The token cookie is Secure with --tls-cert, or when the proxy sends
X-Forwarded-Proto: https.

Environment (with --queue and no --redis/--postgres):
${FLEET_HELP}`,
    )
    .action(async (flags: ConsoleFlags) => {
      process.exitCode = await runConsole(flags);
    });
}

/**
 * Where the runs pages read runs, opened on the first visit of a runs page: a journal file (it may not exist
 * before the first run), or with --redis/--postgres (or RECIPE_REDIS_URL/RECIPE_POSTGRES_URL) a fleet's
 * journal. The fleet's modules (ioredis, pg) are loaded only then, so a console of a local journal starts as fast as before.
 */
async function journalSource(flags: ConsoleFlags): Promise<{ journal: JournalSource; actions: ConsoleActions }> {
  if (flags.redis === undefined && flags.postgres === undefined && flags.queue === undefined) {
    const path = journalPath(flags.journal, process.env, process.cwd(), findRecipeDir(process.cwd()));
    return { journal: journalFileSource(path), actions: journalFileActions(path) };
  }
  if (flags.journal !== undefined)
    throw new RecipeError('F006', { flag: '--journal', reason: 'give --journal or --redis/--postgres, not both' });
  const { store, queue } = fleetStoreTarget(flags, process.env);
  // Paths in the fleet's journal are relative to the workers' recipes folder: read them against ours.
  const recipesDir = flags.recipes?.[0] ?? (existsSync('recipes') ? 'recipes' : '.');
  const label = `${redactUrl(store.url)} (queue ${queue})`;
  // The actions (cancel, redrive, schedules) call what `recipe cancel/resume/schedule` call, on the same fleet.
  const actions = fleetActions(store, queue, label, resolve(recipesDir));
  if (store.kind === 'postgres') {
    const { openPostgresFleetJournal } = await import('../fleet/postgres-journal.js');
    return {
      journal: { label, open: () => openPostgresFleetJournal(store.url, { queue, recipesDir: resolve(recipesDir) }) },
      actions,
    };
  }
  const redisUrl = store.url;
  const { connectRedisNow, openFleetJournal } = await import('../fleet/redis.js');
  return {
    journal: {
      label,
      async open() {
        const redis = await connectRedisNow(redisUrl);
        return openFleetJournal(redis, { queue, recipesDir: resolve(recipesDir), ownsConnection: true });
      },
    },
    actions,
  };
}

async function runConsole(flags: ConsoleFlags): Promise<number> {
  const usage = (message: string): number => {
    process.stderr.write(`recipe console: ${message}\n`);
    return ExitCode.invalid;
  };
  if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65535)
    return usage(`--port must be a whole number from 0 to 65535, got "${flags.port}"`);
  const host = flags.host.trim();
  if (host === '') return usage('--host must not be empty');
  const given = flags.token ?? (process.env.RECIPE_CONSOLE_TOKEN || undefined);
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) || /^127\./.test(host);
  // Made up only for a non-loopback host without one; then the printed URL is the only way to learn it.
  const made = given === undefined && !loopback ? randomBytes(24).toString('base64url') : undefined;
  const token = given ?? made;
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined))
    return usage(
      `${flags.tlsCert === undefined ? '--tls-key' : '--tls-cert'} needs ${flags.tlsCert === undefined ? '--tls-cert' : '--tls-key'} too`,
    );
  let tls: ConsoleTls | undefined;
  if (flags.tlsCert !== undefined && flags.tlsKey !== undefined) {
    try {
      tls = readTlsFiles({ certFile: flags.tlsCert, keyFile: flags.tlsKey });
    } catch (err) {
      if (!(err instanceof TlsFileError)) throw err;
      // A configuration error (exit 3), as a port in use is: the flags are well formed, the files are not usable.
      process.stderr.write(`recipe console: ${new RecipeError('C001', { reason: err.message }).message}\n`);
      return ExitCode.config;
    }
  }

  let service: ServiceSource;
  let journal: JournalSource;
  let actions: ConsoleActions;
  try {
    ({ journal, actions } = await journalSource(flags));
    service = serviceSource(flags.baseUrl);
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('C001', { reason: (err as Error).message });
    process.stderr.write(`recipe console: ${e.message}\n`);
    return exitCodeFor(e.class);
  }
  const recipeFolders = flags.recipes ?? [existsSync('recipes') ? 'recipes' : '.'];
  let running: RunningConsole;
  try {
    running = await startConsole({
      host,
      port: Number(flags.port),
      ...(token !== undefined ? { token } : {}),
      cwd: process.cwd(),
      recipeFolders,
      journal,
      actions,
      // Who did what, when: one line per action on stderr, beside the console's own lines.
      audit: (line) => void process.stderr.write(`${line}\n`),
      service,
      version,
      ...(tls !== undefined ? { tls } : {}),
    });
  } catch (err) {
    await service.close?.();
    if (err instanceof ConsoleUsageError) return usage(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    process.stderr.write(`recipe console: cannot listen: ${(err as Error).message}\n`);
    return code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
      ? ExitCode.config
      : ExitCode.runFailed;
  }
  process.stdout.write(`console at ${running.url}/${made !== undefined ? `?token=${made}` : ''}\n`);
  if (given !== undefined)
    process.stderr.write(`token: from ${flags.token !== undefined ? '--token' : 'RECIPE_CONSOLE_TOKEN'}\n`);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      running.close().then(
        () => resolve(ExitCode.ok),
        (err: unknown) => {
          process.stderr.write(`recipe console: error while stopping: ${(err as Error).message}\n`);
          resolve(ExitCode.runFailed);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** The service page's service: --base-url / CONNECTOR_API_URL with its credentials, else the embedded one, started on first visit. */
function serviceSource(baseUrl: string | undefined): ServiceSource {
  const partial = readConnectionConfig({ ...(baseUrl !== undefined ? { baseUrl } : {}) }, process.env);
  let client: ConnectorClient | undefined;
  if (partial.baseUrl !== undefined) {
    // Checked now (exit 3 for missing credentials), connected on first use.
    const config = completeConnectionConfig(partial);
    return {
      label: partial.baseUrl,
      async open() {
        const { ConnectorClient } = await import('../client/index.js');
        client ??= new ConnectorClient(config);
        return client;
      },
      close: async () => client?.close(),
    };
  }
  let embedded: RunningService | undefined;
  return {
    label: `embedded (${EMBEDDED_DB})`,
    async open() {
      embedded = (await startEmbedded(process.cwd())).service;
      const { ConnectorClient } = await import('../client/index.js');
      client = new ConnectorClient({ baseUrl: embedded.url, ...embedded.credentials, workspace: partial.workspace });
      return client;
    },
    async close() {
      await client?.close();
      await embedded?.close();
    },
  };
}
