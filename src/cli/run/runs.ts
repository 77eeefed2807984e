// The console's words for a run's origin: the runs pages and `runs show` say it alike.
import { describeOrigin as formatOrigin } from '../../console/runs/origin.js';
import type { Command } from 'commander';
import { formatFileLineCol, formatLocation, RecipeError } from '../../errors/index.js';
import type { AttemptRecord, JournalStore, RunRecord, RunStatus, RunSummary } from '../../journal/index.js';
import type { CalledPackage, RunReport } from '../../run/index.js';
import type { FleetClient, FleetRunSummary } from '../../fleet/queue.js';
import { exitCodeFor, ExitCode } from '../exit-codes.js';
import { fleetStoreTarget } from '../fleet/fleet-flags.js';
import { openRunJournal } from './run-journal.js';
import { formatOutputs } from './run-output.js';

const STATUSES: readonly RunStatus[] = ['running', 'succeeded', 'failed', 'interrupted', 'cancelled'];

interface ListFlags {
  json?: boolean;
  status?: string;
  recipe?: string;
  limit?: string;
  journal?: string;
  redis?: string;
  postgres?: string;
  queue?: string;
}

/** The fleet's journal instead of the local one (`--redis URL` or `--postgres URL`, `[--queue NAME]`). */
interface RedisFlags {
  redis?: string;
  postgres?: string;
  queue?: string;
}

/** True when a flag names the fleet's store (the environment does not: `recipe runs` alone is local). */
function isFleet(flags: RedisFlags): boolean {
  return flags.redis !== undefined || flags.postgres !== undefined;
}

/** `recipe runs`: the run history in the journal (list, show, prune). */
export function registerRuns(program: Command): void {
  const runs = program
    .command('runs')
    .description('the run history: list runs, show one, prune old ones')
    .addHelpText(
      'after',
      `
Examples:
  recipe runs                               the 20 newest runs
  recipe runs --status interrupted          runs killed before they ended (resume them)
  recipe runs show 3f9c0a1b2d4e --json      a run's report and its resumes
  recipe runs prune --older-than 30d        forget runs that ended more than 30 days ago
  recipe runs --redis redis://127.0.0.1:6379   the fleet's runs: queued, running, succeeded, failed
  recipe runs --postgres postgres://recipe@127.0.0.1:5432/recipe   the same, for a fleet on PostgreSQL`,
    );
  runs
    .command('list', { isDefault: true })
    .description('runs newest first: run id, status, recipe, started, duration, requests, writes')
    .option('--status <status>', `only runs with this status (${STATUSES.join(', ')})`)
    .option('--recipe <name>', "only runs of this recipe (its name, or its file's absolute path)")
    .option('--limit <n>', 'at most this many runs (default 20)')
    .option('--json', 'print a JSON array')
    .option('--journal <path>', 'the run journal (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--redis <url>', "the fleet's runs (its queue and journal on this Redis) instead of the local journal")
    .option('--postgres <url>', "the fleet's runs (its queue and journal in this PostgreSQL) instead")
    .option('--queue <name>', 'with --redis/--postgres: the queue (default recipe-runs)')
    .action(async (flags: ListFlags) => {
      process.exitCode = isFleet(flags)
        ? await withFleetRuns(flags, (fleet) => listRedisRuns(fleet, flags))
        : await withJournal(flags, (store) => listRuns(store, flags));
    });
  runs
    .command('show')
    .description("a run's report (as `recipe run --json` printed it), its attempts and writes in doubt")
    .argument('<run-id>')
    .option('--json', 'print the report as JSON, with `resumes`')
    .option('--journal <path>', 'the run journal (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--redis <url>', "a fleet run (the fleet's journal on this Redis)")
    .option('--postgres <url>', "a fleet run (the fleet's journal in this PostgreSQL)")
    .option('--queue <name>', 'with --redis/--postgres: the queue (default recipe-runs)')
    .action(async (runId: string, flags: { json?: boolean; journal?: string } & RedisFlags) => {
      process.exitCode = isFleet(flags)
        ? await withFleetRuns(flags, (fleet) => showFleetRun(fleet, runId, flags.json === true))
        : await withJournal(flags, (store) => showRun(store, runId, flags.json === true));
    });
  runs
    .command('prune')
    .description('delete runs that ended (or were interrupted) longer ago than --older-than')
    .requiredOption('--older-than <age>', 'an age: a number and s, m, h, d or w (e.g. 30d)')
    .option('--journal <path>', 'the run journal (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--redis <url>', "the fleet's journal on this Redis instead of the local one")
    .option('--postgres <url>', "the fleet's journal in this PostgreSQL instead of the local one")
    .option('--queue <name>', 'with --redis/--postgres: the queue (default recipe-runs)')
    .action(async (flags: { olderThan: string; journal?: string } & RedisFlags) => {
      const prune = async (store: JournalStore): Promise<number> => {
        const ms = parseAge(flags.olderThan);
        const pruned = await store.prune(Date.now() - ms);
        process.stdout.write(`pruned ${pruned} run${pruned === 1 ? '' : 's'} older than ${flags.olderThan}\n`);
        return ExitCode.ok;
      };
      process.exitCode = isFleet(flags)
        ? await withFleetRuns(flags, (fleet) => prune(fleet.journal))
        : await withJournal(flags, prune);
    });
}

async function withJournal(flags: { journal?: string }, fn: (store: JournalStore) => Promise<number>): Promise<number> {
  let store: JournalStore | undefined;
  try {
    store = await openRunJournal(flags.journal !== undefined ? { journal: flags.journal } : {});
    return await fn(store as JournalStore);
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    process.stderr.write(`${e.code} ${e.message}\n`);
    return exitCodeFor(e.class);
  } finally {
    await store?.close();
  }
}

/** The fleet's queue code (BullMQ: a third of a second to load), loaded only for --redis/--postgres. */
const fleetQueue = () => import('../../fleet/queue.js');

async function withFleetRuns(flags: RedisFlags, fn: (fleet: FleetClient) => Promise<number>): Promise<number> {
  let fleet: FleetClient | undefined;
  try {
    const { store, queue } = fleetStoreTarget(flags, {});
    fleet = await (await fleetQueue()).openFleet(store, queue);
    return await fn(fleet);
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    process.stderr.write(`${e.code} ${e.message}\n`);
    return exitCodeFor(e.class);
  } finally {
    await fleet?.close();
  }
}

/** `runs --redis`: the fleet's runs, queued ones included. */
async function listRedisRuns(fleet: FleetClient, flags: ListFlags): Promise<number> {
  const statuses = [...STATUSES, 'queued'];
  if (flags.status !== undefined && !statuses.includes(flags.status))
    throw new RecipeError('J008', { flag: `--status ${flags.status}`, reason: `one of ${statuses.join(', ')}` });
  const limit = flags.limit === undefined ? 20 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new RecipeError('J008', { flag: `--limit ${flags.limit}`, reason: 'a positive integer' });
  const list = await (
    await fleetQueue()
  ).listFleetRuns(fleet, {
    ...(flags.status !== undefined ? { status: flags.status as RunStatus | 'queued' } : {}),
    ...(flags.recipe !== undefined ? { recipe: flags.recipe } : {}),
    limit,
  });
  if (flags.json) process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
  else process.stdout.write(formatTable(list));
  return ExitCode.ok;
}

async function listRuns(store: JournalStore, flags: ListFlags): Promise<number> {
  if (flags.status !== undefined && !STATUSES.includes(flags.status as RunStatus))
    throw new RecipeError('J008', { flag: `--status ${flags.status}`, reason: `one of ${STATUSES.join(', ')}` });
  const limit = flags.limit === undefined ? 20 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new RecipeError('J008', { flag: `--limit ${flags.limit}`, reason: 'a positive integer' });
  const list = await store.listRuns({
    ...(flags.status !== undefined ? { status: flags.status as RunStatus } : {}),
    ...(flags.recipe !== undefined ? { recipe: flags.recipe } : {}),
    limit,
  });
  if (flags.json) process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
  else process.stdout.write(formatTable(list));
  return ExitCode.ok;
}

function formatTable(list: readonly (Omit<RunSummary, 'status'> & { status: string; reason?: string })[]): string {
  if (list.length === 0) return 'no runs\n';
  // Fleet runs that failed before they began say why in a last column.
  const reasons = list.some((r) => r.reason !== undefined);
  const rows = [
    ['RUN ID', 'STATUS', 'RECIPE', 'STARTED', 'DURATION', 'REQUESTS', 'WRITES', ...(reasons ? ['REASON'] : [])],
    ...list.map((r) => [
      r.run_id,
      r.status,
      r.recipe,
      r.started_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      formatDuration(r.duration_ms),
      String(r.requests),
      String(r.writes),
      ...(reasons ? [r.reason ?? ''] : []),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/**
 * `runs show --redis`: a run the journal has is shown as locally; one that never began is shown from its job
 * (queued, or failed before it started with the reason), so that every submitted run can be looked at.
 */
async function showFleetRun(fleet: FleetClient, runId: string, json: boolean): Promise<number> {
  const found = await (await fleetQueue()).getFleetRun(fleet, runId);
  if (!found) throw new RecipeError('F007', { runId, queue: fleet.queue.name });
  if ('record' in found) return showRun(fleet.journal, runId, json);
  const run: FleetRunSummary & { job_state: string } = { ...found.queued, job_state: found.state };
  if (json) {
    process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
    return ExitCode.ok;
  }
  const lines = [
    `run ${run.run_id}  ${run.status}  ${run.recipe} (${run.file})`,
    `submitted ${run.started_at}  job ${found.state}${run.ended_at ? `  ended ${run.ended_at}` : ''}`,
    run.reason !== undefined ? `failed before it began: ${run.reason}` : 'not begun yet: no worker has started it',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}

async function showRun(store: JournalStore, runId: string, json: boolean): Promise<number> {
  const record = await store.getRun(runId);
  if (!record) throw new RecipeError('J001', { runId, journal: 'the journal' });
  const attempts = await store.listAttempts(runId);
  const inDoubt = record.status === 'running' ? [] : await store.writesInDoubt(runId);
  const report = reportOf(record);
  const resumes = attempts.filter((a) => a.attempt > 1);
  // Who started it when it was not a command line: a trigger delivery or an MCP caller (journaled by startRun).
  const origin = record.options.origin as Record<string, unknown> | undefined;
  // The shared packages it called, pinned (journaled by beginRun from recipe.lock).
  const packages = record.options.packages as CalledPackage[] | undefined;
  if (json) {
    const writes = inDoubt.map((w) => ({ step: w.step_path, call_key: w.call_key, method: w.method, path: w.path }));
    process.stdout.write(
      `${JSON.stringify({ ...report, resumes, ...(writes.length ? { writes_in_doubt: writes } : {}), ...(origin ? { origin } : {}), ...(packages ? { packages } : {}) }, null, 2)}\n`,
    );
    return ExitCode.ok;
  }
  const lines = [
    `run ${record.run_id}  ${record.status}  ${record.recipe} (${record.file})`,
    `started ${record.started_at}${record.ended_at ? `  ended ${record.ended_at}` : ''}  ` +
      `duration ${formatDuration(record.duration_ms)}  requests ${record.requests}  writes ${record.writes}`,
    ...(origin ? [`started by ${formatOrigin(origin)}`] : []),
    ...(packages ? ['packages:', ...packages.map((p) => `  ${p.key}  ${p.resolved}`)] : []),
    ...(attempts.length > 1 ? ['attempts:', ...attempts.map(formatAttempt)] : []),
  ];
  if (inDoubt.length) {
    lines.push(`writes in doubt (settled by \`recipe resume ${record.run_id}\`):`);
    for (const w of inDoubt) lines.push(`  ${w.step_path} at ${formatFileLineCol(w)}: ${w.method} ${w.path}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (record.outputs && Object.keys(record.outputs).length > 0) process.stdout.write(formatOutputs(record.outputs));
  const e = record.error as { code?: string; message?: string; file?: string; line?: number; column?: number } | null;
  if (e) process.stdout.write(`error: ${formatLocation(e)}${e.code} ${e.message}\n`);
  return ExitCode.ok;
}

/** The recorded report; for a run that never recorded one (running, interrupted), one made from the record. */
function reportOf(record: RunRecord): RunReport | Record<string, unknown> {
  if (record.report !== null) return JSON.parse(record.report) as RunReport;
  return {
    status: record.status,
    run_id: record.run_id,
    recipe: record.recipe,
    file: record.file,
    dry_run: record.dry_run,
    outputs: {},
    steps: [],
    requests: record.requests,
    retries: 0,
    duration_ms: record.duration_ms,
  };
}

function formatAttempt(a: AttemptRecord): string {
  return (
    `  ${a.attempt}  ${a.kind.padEnd(7)}  ${a.status.padEnd(11)}  started ${a.started_at}  ` +
    `requests ${a.requests}  writes ${a.writes}${a.replayed_calls ? `  replayed ${a.replayed_calls}` : ''}`
  );
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 3600
    ? `${Math.floor(s / 60)} m ${s % 60} s`
    : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} m`;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d` → ms; a number and one of s, m, h, d, w. */
export function parseAge(text: string): number {
  const m = /^(\d+)\s*([smhdw])$/.exec(text.trim());
  if (!m)
    throw new RecipeError('J008', { flag: `--older-than ${text}`, reason: 'a number and s, m, h, d or w, e.g. 30d' });
  return Number(m[1]) * (UNITS[m[2] as string] as number);
}
