import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveInputs } from '../../compile/index.js';
import { catalog, displayPath, formatLocation, RecipeError, type Diagnostic } from '../../errors/index.js';
import { jobIdOf } from '../../fleet/job.js';
import { openFleet, runJobData, submitRun, waitForRun, type FleetClient } from '../../fleet/queue.js';
import { changedInputs, checkRecipe, isValidRunId, newRunId, type RunReport } from '../../run/index.js';
import { formatDiagnostic } from '../../source/index.js';
import { ExitCode, exitCodeFor } from '../exit-codes.js';
import { CALLBACK_SECRET_ENV, jobCallbackOf } from '../run-callback.js';
import { FLEET_HELP, fleetStoreTarget, STORE_OPTION_HELP, type FleetFlags } from './fleet-flags.js';
import { collect } from '../options.js';
import { readGivenInputs } from '../run/run-inputs.js';
import { reusedRunId } from '../run/run-journal.js';
import { configuredCatalog } from '../run/run-target.js';
import { printReport } from '../run/run.js';

interface SubmitFlags extends FleetFlags {
  input?: string[];
  inputs?: string;
  recipes?: string;
  runId?: string;
  wait?: boolean;
  json?: boolean;
  dryRun?: boolean;
  connector?: string;
  quiet?: boolean;
  strict?: boolean;
  callback?: string;
}

/** `recipe submit FILE`: enqueues a run for the fleet's workers; --wait follows it to its end. */
export function registerSubmit(program: Command): void {
  program
    .command('submit')
    .description("enqueue a run of a recipe for the fleet's workers; prints its run id")
    .argument('<file>', 'the recipe file, inside the recipes directory')
    .option('-i, --input <name=value>', 'an input value (repeatable); coerced to the declared type', collect)
    .option('--inputs <file>', 'input values from a YAML or JSON object file (-i wins)')
    .option('--redis <url>', STORE_OPTION_HELP.redis)
    .option('--postgres <url>', STORE_OPTION_HELP.postgres)
    .option('--queue <name>', 'the queue (default recipe-runs)')
    .option('--recipes <dir>', "the recipes directory, as the workers' --recipes (default: the working directory)")
    .option('--run-id <id>', 'the run id (default a new one); submitting an id again does not run it twice')
    .option('--connector <id>', "connector id to use instead of the recipe's `connector:`")
    .option('--dry-run', 'perform reads, do not send writes')
    .option('--strict', 'warnings (W codes) refuse the recipe too, as `validate --strict`')
    .option(
      '--callback <url>',
      `the worker POSTs the run report here when the run ends (signed when ${CALLBACK_SECRET_ENV} is set: the workers need it too)`,
    )
    .option('--wait', "follow the run to its end: print its report and exit with the run's exit code")
    .option('--json', 'print JSON: {run_id, queue, job_id, status} (with --wait, the run report)')
    .option('-q, --quiet', 'no notes on stderr')
    .addHelpText(
      'after',
      `
Configuration:
${FLEET_HELP}
The recipe is checked here as \`recipe validate\` checks it (exit 2 when invalid; connector calls against the
catalog of CONNECTOR_API_URL when set, else the embedded types), checked again by the worker against its
service's catalog before a single request, and pinned: the job carries its path under --recipes and
its SHA-256, the SHA-256 of its recipe.lock (shared packages; a worker whose lock differs refuses it, P036),
the inputs, and the NAMES of its secrets; each worker reads the values from its own environment.

Exit codes: 0 submitted (with --wait: as \`recipe run\`), 2 recipe, inputs or flags invalid, 3 Redis or PostgreSQL unreachable.

Examples:
  recipe submit recipes/pipeline-report.yaml --redis redis://127.0.0.1:6379
  recipe submit recipes/stale-deals-follow-up.yaml -i days=30 --wait --json | jq .outputs
  RUN=$(recipe submit recipes/pipeline-report.yaml) && recipe runs show "$RUN" --redis redis://127.0.0.1:6379
  ${CALLBACK_SECRET_ENV}=... recipe submit recipes/pipeline-report.yaml --callback https://ci.example.com/recipe-done`,
    )
    .action(async (file: string, flags: SubmitFlags) => {
      process.exitCode = await submitCommand(file, flags);
    });
}

/** A run id submitted again with other inputs than its run (or its queued job) has: J021, nothing enqueued. */
async function refuseOtherInputs(
  fleet: FleetClient,
  runId: string,
  inputs: Readonly<Record<string, unknown>>,
): Promise<void> {
  const record = await fleet.journal.getRun(runId);
  if (record) {
    const changed = changedInputs(record, inputs);
    if (changed.length > 0) throw reusedRunId(record, changed);
    return;
  }
  const job = await fleet.queue.getJob(jobIdOf(runId));
  const queued = (job?.data as { inputs?: Record<string, unknown> } | undefined)?.inputs;
  if (!queued) return;
  const names = [...new Set([...Object.keys(queued), ...Object.keys(inputs)])];
  const changed = names.filter((n) => JSON.stringify(queued[n]) !== JSON.stringify(inputs[n])).sort();
  if (changed.length > 0)
    throw new RecipeError('J021', { runId, status: 'queued', names: changed.join(', '), hint: '' });
}

async function submitCommand(file: string, flags: SubmitFlags): Promise<number> {
  const note = (line: string): void => {
    if (!flags.quiet) process.stderr.write(`${line}\n`);
  };
  let fleet: FleetClient | undefined;
  try {
    const { store, queue } = fleetStoreTarget(flags, process.env);
    const callback = flags.callback !== undefined ? jobCallbackOf(flags.callback, process.env) : undefined;
    if (flags.runId !== undefined && !isValidRunId(flags.runId))
      throw new RecipeError('F006', {
        flag: `--run-id ${flags.runId}`,
        reason: 'a run id is 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit',
      });
    const checked = await checkRecipe(resolve(file), {
      ...(await configuredCatalog(note)),
      displayName: displayPath(file),
      strict: flags.strict === true,
    });
    if (!checked.recipe) return invalid(checked.diagnostics, flags);
    for (const w of checked.recipe.warnings) process.stderr.write(`${formatDiagnostic(w)}\n`);
    const plan = checked.recipe.plan;
    const read = await readGivenInputs(flags.inputs, flags.input);
    if (!read.values) return invalid(read.diagnostics, flags);
    const inputs = resolveInputs(plan, read.values);
    if (inputs.diagnostics.length > 0) return invalid(inputs.diagnostics, flags);
    const runId = flags.runId ?? newRunId(Math.random);
    const data = await runJobData(plan, flags.recipes ?? process.cwd(), {
      inputs: inputs.values,
      runId,
      ...(flags.dryRun ? { dryRun: true } : {}),
      ...(flags.connector !== undefined ? { connector: flags.connector } : {}),
    });
    fleet = await openFleet(store, queue);
    if (flags.runId !== undefined) await refuseOtherInputs(fleet, runId, inputs.values);
    const added = await submitRun(fleet, {
      ...data,
      run_id: runId,
      origin: { kind: 'submit' },
      ...(callback ? { callback } : {}),
    });
    note(added ? `submitted run ${runId} (${data.recipe}) to queue ${queue}` : `run ${runId} was already submitted`);
    if (!flags.wait) {
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify({ run_id: runId, queue, job_id: jobIdOf(runId), status: added ? 'queued' : 'submitted' }, null, 2)}\n`,
        );
      else process.stdout.write(`${runId}\n`);
      return ExitCode.ok;
    }
    return await follow(fleet, runId, flags, note);
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ status: 'failed', error: { code: e.code, message: e.message } }, null, 2)}\n`,
      );
    return exitCodeFor(e.class);
  } finally {
    await fleet?.close();
  }
}

/** --wait: the run's report and exit code; Ctrl-C stops following (the run goes on in the fleet). */
export async function follow(
  fleet: FleetClient,
  runId: string,
  flags: { json?: boolean },
  note: (line: string) => void,
): Promise<number> {
  const stop = new AbortController();
  const onSigint = (): void => stop.abort();
  process.once('SIGINT', onSigint);
  try {
    const outcome = await waitForRun(fleet, runId, stop.signal);
    if (!outcome) {
      note(`stopped following run ${runId}; it goes on in the fleet`);
      return ExitCode.interrupted;
    }
    if (outcome.kind === 'report') {
      const report = JSON.parse(outcome.record.report ?? '{}') as RunReport;
      return printReport(report, { ...(flags.json ? { json: true } : {}) }, false);
    }
    // The job failed before the run could start (or record its end): its reason starts with a code.
    const code = /^([A-Z]\d{3}) /.exec(outcome.reason)?.[1] as keyof typeof catalog | undefined;
    const message = code ? outcome.reason.slice(code.length + 1) : outcome.reason;
    process.stderr.write(`${code ? `${code} ` : ''}${message}\n`);
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ status: 'failed', run_id: runId, error: { code: code ?? 'F008', message } }, null, 2)}\n`,
      );
    return code && code in catalog ? exitCodeFor(catalog[code].class) : ExitCode.runFailed;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

function invalid(diagnostics: Diagnostic[], flags: SubmitFlags): number {
  process.stderr.write(`${diagnostics.map((d) => formatDiagnostic(d)).join('\n')}\n`);
  if (flags.json) process.stdout.write(`${JSON.stringify({ status: 'invalid', diagnostics }, null, 2)}\n`);
  return ExitCode.invalid;
}
