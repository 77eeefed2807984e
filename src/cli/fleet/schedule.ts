import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveInputs } from '../../compile/index.js';
import { displayPath, formatLocation, RecipeError, type Diagnostic } from '../../errors/index.js';
import { openFleet, runJobData, type FleetClient } from '../../fleet/queue.js';
import {
  listSchedules,
  pauseSchedule,
  removeSchedule,
  resumeSchedule,
  upsertSchedule,
  type ScheduleWhen,
} from '../../fleet/schedules.js';
import { formatDiagnostic } from '../../source/index.js';
import { ExitCode, exitCodeFor } from '../exit-codes.js';
import { CALLBACK_SECRET_ENV, jobCallbackOf } from '../run-callback.js';
import { FLEET_HELP, fleetStoreTarget, STORE_OPTION_HELP, type FleetFlags } from './fleet-flags.js';
import { collect } from '../options.js';
import { readGivenInputs } from '../run/run-inputs.js';
import { configuredCatalog } from '../run/run-target.js';
import { checkRecipe } from '../../run/index.js';

interface AddFlags extends FleetFlags {
  cron?: string;
  every?: string;
  tz?: string;
  input?: string[];
  inputs?: string;
  recipes?: string;
  connector?: string;
  jitter?: string;
  callback?: string;
}

/** `recipe schedule add|list|remove`: recipes run on a schedule by the fleet (BullMQ job schedulers). */
export function registerSchedule(program: Command): void {
  const schedule = program
    .command('schedule')
    .description("run recipes on a schedule on the fleet's workers: exactly one run per tick")
    .addHelpText(
      'after',
      `
Configuration:
${FLEET_HELP}
Examples:
  recipe schedule add monday-report recipes/pipeline-report.yaml --cron "0 7 * * 1" --tz Europe/Paris
  recipe schedule add stale recipes/stale-deals-follow-up.yaml --every 15m -i days=30
  recipe schedule add sync-a recipes/sync.yaml --cron "0 * * * *" --jitter 5m   spread with other hourly schedules
  recipe schedule add nightly recipes/sync.yaml --cron "0 2 * * *" --callback https://ci.example.com/done
  recipe schedule list --json
  recipe schedule pause monday-report          no ticks until resumed (runs already made go on)
  recipe schedule resume monday-report
  recipe schedule remove monday-report`,
    );
  schedule
    .command('add')
    .description('add a schedule, or replace the one with that name')
    .argument('<name>', 'the schedule name (letters, digits, ".", "_", "-"); its runs are <name>-<tick ms>')
    .argument('<file>', 'the recipe file, inside the recipes directory')
    .option('--cron <pattern>', 'a cron pattern: 5 fields, or 6 with seconds first ("*/10 * * * * *")')
    .option('--tz <zone>', 'the time zone of --cron (IANA, e.g. Europe/Paris; default UTC)')
    .option('--every <period>', 'instead of --cron: a period, a number and ms, s, m, h or d (e.g. 15m)')
    .option('-i, --input <name=value>', 'an input value (repeatable)', collect)
    .option('--inputs <file>', 'input values from a YAML or JSON object file (-i wins)')
    .option('--recipes <dir>', "the recipes directory, as the workers' --recipes (default: the working directory)")
    .option('--connector <id>', "connector id to use instead of the recipe's `connector:`")
    .option(
      '--jitter <duration>',
      'start each tick up to this late (e.g. 5m): a stable offset per schedule, so schedules on the same minute spread out',
    )
    .option(
      '--callback <url>',
      `the worker POSTs each run's report here when it ends (signed when ${CALLBACK_SECRET_ENV} is set: the workers need it too)`,
    )
    .option('--redis <url>', STORE_OPTION_HELP.redis)
    .option('--postgres <url>', STORE_OPTION_HELP.postgres)
    .option('--queue <name>', 'the queue (default recipe-runs)')
    .action(async (name: string, file: string, flags: AddFlags) => {
      process.exitCode = await addSchedule(name, file, flags);
    });
  schedule
    .command('list')
    .description("the queue's schedules: name, recipe, cron or period, next tick")
    .option('--json', 'print a JSON array')
    .option('--redis <url>', STORE_OPTION_HELP.redis)
    .option('--postgres <url>', STORE_OPTION_HELP.postgres)
    .option('--queue <name>', 'the queue (default recipe-runs)')
    .action(async (flags: FleetFlags & { json?: boolean }) => {
      process.exitCode = await withFleet(flags, async (fleet) => {
        const list = await listSchedules(fleet);
        if (flags.json) process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        else if (list.length === 0) process.stdout.write('no schedules\n');
        else
          process.stdout.write(
            table([
              ['NAME', 'RECIPE', 'WHEN', 'TZ', 'NEXT', 'JITTER'],
              ...list.map((s) => [
                s.name,
                s.recipe,
                s.cron ?? `every ${s.every_ms} ms`,
                s.tz ?? '',
                s.paused ? 'paused' : (s.next?.replace('T', ' ').replace(/\.\d+Z$/, 'Z') ?? ''),
                s.jitter_ms !== null ? `+${s.offset_ms} ms of ${s.jitter_ms} ms` : '',
              ]),
            ]),
          );
        return ExitCode.ok;
      });
    });
  for (const [verb, act, said] of [
    ['pause', pauseSchedule, 'paused'],
    ['resume', resumeSchedule, 'resumed'],
  ] as const)
    schedule
      .command(verb)
      .description(
        verb === 'pause'
          ? 'pause a schedule: no ticks until resumed (runs it already made go on)'
          : 'resume a paused schedule from its next tick (missed ticks are not made up)',
      )
      .argument('<name>')
      .option('--redis <url>', STORE_OPTION_HELP.redis)
      .option('--postgres <url>', STORE_OPTION_HELP.postgres)
      .option('--queue <name>', 'the queue (default recipe-runs)')
      .action(async (name: string, flags: FleetFlags) => {
        process.exitCode = await withFleet(flags, async (fleet) => {
          await act(fleet, name);
          process.stderr.write(`${said} schedule ${name}\n`);
          return ExitCode.ok;
        });
      });
  schedule
    .command('remove')
    .description('remove a schedule (runs it already made go on)')
    .argument('<name>')
    .option('--redis <url>', STORE_OPTION_HELP.redis)
    .option('--postgres <url>', STORE_OPTION_HELP.postgres)
    .option('--queue <name>', 'the queue (default recipe-runs)')
    .action(async (name: string, flags: FleetFlags) => {
      process.exitCode = await withFleet(flags, async (fleet) => {
        await removeSchedule(fleet, name);
        process.stderr.write(`removed schedule ${name}\n`);
        return ExitCode.ok;
      });
    });
}

/** Runs `fn` with the fleet open; `check` first, so that flag and recipe errors need no store. */
async function withFleet(
  flags: FleetFlags,
  fn: (fleet: FleetClient) => Promise<number>,
  check?: () => Promise<number | undefined>,
): Promise<number> {
  let fleet: FleetClient | undefined;
  try {
    const { store, queue } = fleetStoreTarget(flags, process.env);
    const failed = await check?.();
    if (failed !== undefined) return failed;
    fleet = await openFleet(store, queue);
    return await fn(fleet);
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
    return exitCodeFor(e.class);
  } finally {
    await fleet?.close();
  }
}

async function addSchedule(name: string, file: string, flags: AddFlags): Promise<number> {
  let when: ScheduleWhen | undefined;
  let data: Awaited<ReturnType<typeof runJobData>> | undefined;
  const check = async (): Promise<number | undefined> => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name))
      throw new RecipeError('F006', { flag: `schedule name ${name}`, reason: 'letters, digits, ".", "_" or "-"' });
    when = whenOf(flags);
    const callback = flags.callback !== undefined ? jobCallbackOf(flags.callback, process.env) : undefined;
    const checked = await checkRecipe(resolve(file), {
      ...(await configuredCatalog((m) => process.stderr.write(`${m}\n`))),
      displayName: displayPath(file),
    });
    if (!checked.recipe) return invalid(checked.diagnostics);
    for (const w of checked.recipe.warnings) process.stderr.write(`${formatDiagnostic(w)}\n`);
    const plan = checked.recipe.plan;
    const read = await readGivenInputs(flags.inputs, flags.input);
    if (!read.values) return invalid(read.diagnostics);
    const inputs = resolveInputs(plan, read.values);
    if (inputs.diagnostics.length > 0) return invalid(inputs.diagnostics);
    const jitterMs = flags.jitter === undefined ? undefined : durationMs('--jitter', flags.jitter);
    const made = await runJobData(plan, flags.recipes ?? process.cwd(), {
      inputs: inputs.values,
      schedule: name,
      ...(flags.connector !== undefined ? { connector: flags.connector } : {}),
    });
    const withCallback = callback ? { ...made, callback } : made;
    data = jitterMs !== undefined ? { ...withCallback, jitter_ms: jitterMs } : withCallback;
    return undefined;
  };
  return withFleet(
    flags,
    async (fleet) => {
      const w = when as ScheduleWhen;
      const d = data as NonNullable<typeof data>;
      await upsertSchedule(fleet, name, w, d);
      process.stderr.write(
        `schedule ${name}: ${d.recipe} ${'cron' in w ? `at "${w.cron}"${w.tz ? ` (${w.tz})` : ''}` : `every ${w.everyMs} ms`}\n`,
      );
      return ExitCode.ok;
    },
    check,
  );
}

const PERIOD: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function whenOf(flags: AddFlags): ScheduleWhen {
  if ((flags.cron === undefined) === (flags.every === undefined))
    throw new RecipeError('F006', { flag: '--cron / --every', reason: 'give exactly one of them' });
  if (flags.cron !== undefined) return { cron: flags.cron, ...(flags.tz !== undefined ? { tz: flags.tz } : {}) };
  if (flags.tz !== undefined) throw new RecipeError('F006', { flag: '--tz', reason: 'goes with --cron' });
  const ms = durationMs('--every', flags.every as string);
  if (ms < 1000)
    throw new RecipeError('F006', { flag: `--every ${flags.every}`, reason: 'a period of 1s or more, e.g. 15m' });
  return { everyMs: ms };
}

/** A duration flag: a number and ms, s, m, h or d (F006 otherwise). */
function durationMs(flag: string, text: string): number {
  const m = /^(\d+)\s*(ms|s|m|h|d)$/.exec(text.trim());
  if (!m) throw new RecipeError('F006', { flag: `${flag} ${text}`, reason: 'a number and ms, s, m, h or d, e.g. 5m' });
  return Number(m[1]) * (PERIOD[m[2] as string] as number);
}

function invalid(diagnostics: Diagnostic[]): number {
  process.stderr.write(`${diagnostics.map((d) => formatDiagnostic(d)).join('\n')}\n`);
  return ExitCode.invalid;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
