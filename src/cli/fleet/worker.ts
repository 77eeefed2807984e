import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { completeConnectionConfig, readConnectionConfig } from '../../client/index.js';
import { formatLocation, RecipeError } from '../../errors/index.js';
import { startFleetWorker } from '../../fleet/worker.js';
import { readCommandEnv } from '../run/env-file.js';
import { retentionMs } from '../run/run-journal.js';
import { ExitCode, exitCodeFor } from '../exit-codes.js';
import { parseDurationFlag, RETRY_FOR_HELP } from '../options.js';
import { version } from '../version.js';
import { FLEET_HELP, fleetStoreTarget, positiveInt, STORE_OPTION_HELP, type FleetFlags } from './fleet-flags.js';

interface WorkerFlags extends FleetFlags {
  concurrency?: string;
  recipes?: string;
  baseUrl?: string;
  envFile?: string | false;
  maxRpsPerConnector?: string;
  lockMs?: string;
  graceMs?: string;
  retryFor?: number;
  retain?: number;
}

/** `recipe worker`: takes recipe runs from the fleet's queue until SIGTERM (or Ctrl-C). */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description("run recipes from the fleet's queue (BullMQ on Redis or PostgreSQL) until stopped")
    .option('--redis <url>', STORE_OPTION_HELP.redis)
    .option('--postgres <url>', STORE_OPTION_HELP.postgres)
    .option('--queue <name>', 'the queue to take runs from (default recipe-runs)')
    .option('--concurrency <n>', 'runs at once (default 1)')
    .option('--recipes <dir>', 'the recipes directory jobs name their recipe in (default: the working directory)')
    .option('--base-url <url>', 'connector service URL (else CONNECTOR_API_URL)')
    .option('--env-file <file>', 'read CONNECTOR_* and secrets from this file (default: .env when present)')
    .option('--no-env-file', 'do not read .env')
    .option('--max-rps-per-connector <r>', 'requests per second per connector, across every worker of the queue')
    .option('--lock-ms <ms>', "a job's lock: a dead worker's runs move on within twice this (default 30000)")
    .option('--retry-for <duration>', RETRY_FOR_HELP, parseDurationFlag)
    .option(
      '--retain <duration>',
      "prune runs of the fleet's journal that ended longer ago than this, at the start and every 10 minutes, e.g. 30d (else RECIPE_RETAIN; default: keep all)",
      parseDurationFlag,
    )
    .option(
      '--grace-ms <ms>',
      'on SIGTERM, how long runs in hand may finish before they are handed back (default 25000)',
    )
    .addHelpText(
      'after',
      `
Configuration (flags win over the environment):
${FLEET_HELP}  CONNECTOR_API_URL, CONNECTOR_CLIENT_ID, CONNECTOR_CLIENT_SECRET, CONNECTOR_WORKSPACE: the service,
  as for \`recipe run\`. A recipe's secrets are read from this worker's environment (or .env), never from the fleet's store.

Every worker needs the same recipes: a job names its recipe by its path under --recipes and pins its
SHA-256; a worker whose copy differs fails the job (F003). SIGTERM or Ctrl-C: no new jobs; runs in hand
finish, or after --grace-ms are handed back to the queue (another worker resumes them); exit 0.

Examples:
  recipe worker --redis redis://127.0.0.1:6379 --recipes recipes/
  recipe worker --redis redis://127.0.0.1:6379 --concurrency 4 --queue nightly
  recipe worker --postgres postgres://recipe@127.0.0.1:5432/recipe --recipes recipes/
  recipe worker --redis redis://127.0.0.1:6379 --retain 30d

With --postgres the worker creates (or upgrades) its schemas at start: bullmq (the queue), recipe_journal and
recipe_fleet; several workers starting at once apply them once.`,
    )
    .action(async (flags: WorkerFlags) => {
      process.exitCode = await workerCommand(flags);
    });
}

async function workerCommand(flags: WorkerFlags): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  let worker;
  let graceMs: number;
  try {
    graceMs = positiveInt('--grace-ms', flags.graceMs, 25_000);
    const { store, queue } = fleetStoreTarget(flags, process.env);
    const read = readCommandEnv(flags.envFile, process.cwd());
    const note = read.note;
    // Each run reads its default max_duration from RECIPE_RETRY_FOR (run/start-run.ts): the flag sets it.
    const env = flags.retryFor === undefined ? read.env : { ...read.env, RECIPE_RETRY_FOR: `${flags.retryFor}ms` };
    if (note) log(note);
    const connection = completeConnectionConfig(
      readConnectionConfig({ ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}) }, env),
    );
    const rps = flags.maxRpsPerConnector === undefined ? undefined : Number(flags.maxRpsPerConnector);
    if (rps !== undefined && !(rps > 0))
      throw new RecipeError('F006', {
        flag: `--max-rps-per-connector ${flags.maxRpsPerConnector}`,
        reason: 'a positive number',
      });
    const retainMs = retentionMs(flags.retain, env);
    const recipesDir = flags.recipes ?? process.cwd();
    if (!isDirectory(recipesDir))
      throw new RecipeError('F006', { flag: `--recipes ${recipesDir}`, reason: 'not a directory' });
    worker = await startFleetWorker({
      store,
      queue,
      concurrency: positiveInt('--concurrency', flags.concurrency, 1),
      recipesDir,
      connection,
      env,
      ...(rps !== undefined ? { maxRpsPerConnector: rps } : {}),
      lockMs: positiveInt('--lock-ms', flags.lockMs, 30_000),
      ...(retainMs !== undefined ? { retainMs } : {}),
      version,
      log,
    });
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
    return exitCodeFor(e.class);
  }
  const running = worker;
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      log(`${signal}: stopping`);
      void running.shutdown(graceMs).then(resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  log(`worker ${running.name} stopped`);
  return ExitCode.ok;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
