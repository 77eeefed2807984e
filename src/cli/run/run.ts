import { randomUUID } from 'node:crypto';
import { failureAdvice } from './failure-advice.js';
import { Option, type Command } from 'commander';
import { ENV, type ConnectionConfig } from '../../client/index.js';
import { callsConnector, resolveInputs } from '../../compile/index.js';
import { catalog, formatLocation, RecipeError, type Diagnostic } from '../../errors/index.js';
import type { JournalStore } from '../../journal/index.js';
import { startRun, type CheckedRecipe, type RunReport } from '../../run/index.js';
import type { RunningService } from '../../service/start.js';
import { formatDiagnostic } from '../../source/index.js';
import { loadTracer, type RunTracer } from '../../telemetry/index.js';
import { clockFrom, parseNow } from './clock.js';
import { useColor } from '../color.js';
import { ExitCode, exitCodeFor } from '../exit-codes.js';
import { formatDryRunWrites } from './dry-run-output.js';
import { collect, parseDurationFlag, RETAIN_HELP, RETRY_FOR_HELP } from '../options.js';
import { EMBEDDED_DB, startEmbedded } from './run-embedded.js';
import { readGivenInputs } from './run-inputs.js';
import { applyRetention, JOURNAL_HELP, openRunJournal, printFinished, reuseRun, type RunEdges } from './run-journal.js';
import { checkForTarget, embeddedAsked, runTarget, type RunTarget } from './run-target.js';
import type { CommandOutput, RunChoice, RunFlags } from './run-types.js';
import { formatOutputs, ProgressView } from './run-output.js';

/** `recipe run FILE`: runs a recipe against the configured connector service, or the embedded one. */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run a recipe against the connector service (the embedded one when none is configured)')
    .argument('<file>', 'the recipe file')
    .option('-i, --input <name=value>', 'an input value (repeatable); coerced to the declared type', collect)
    .option('--inputs <file>', 'input values from a YAML or JSON object file (-i wins)')
    .addOption(
      new Option(
        '--base-url <url>',
        'connector service URL (else CONNECTOR_API_URL, else the embedded service)',
      ).conflicts(['fixtures', 'db']),
    )
    .option('--organization <id>', 'organization sent as x-organization-id (else CONNECTOR_ORGANIZATION_ID)')
    .option('--connector <id>', "connector id to use instead of the recipe's `connector:`")
    .option('--dry-run', 'perform reads, do not send writes: report each write with the exact request')
    .option('--strict', 'warnings (W codes) stop the run before anything is sent, as they fail `validate --strict`')
    .option('--json', 'print one JSON run report on stdout; logs go to stderr')
    .option('-q, --quiet', 'no progress and no log lines, only outputs and errors')
    .option('-v, --verbose', 'also print debug lines (every request, retries, waits)')
    .option('--fixtures <file>', 'run on an embedded service holding only this dataset (in memory unless --db)')
    .option('--db <path>', `the embedded service's database file, or :memory: (default: the nearest ${EMBEDDED_DB})`)
    .option('--now <iso>', 'pin the clock the run and the embedded service see, e.g. 2026-07-15T09:00:00Z', parseNow)
    .option('--env-file <file>', 'read CONNECTOR_* and secrets from this file (default: .env when present)')
    .option('--no-env-file', 'do not read .env')
    .option('--run-id <id>', 'the run id: a new run, the resume of an unfinished one, or the report of a finished one')
    .option('--journal <path>', 'the run journal, a SQLite file (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--no-journal', 'do not journal this run (it cannot be resumed or listed)')
    .option('--callback <url>', 'POST the run report here when the run ends, signed with RECIPE_CALLBACK_SECRET')
    .option('--retry-for <duration>', RETRY_FOR_HELP, parseDurationFlag)
    .option('--retain <duration>', RETAIN_HELP, parseDurationFlag)
    .option(
      '--drop-read-answers',
      "once the run succeeds, drop its reads' answers from the journal (it can no longer be resumed; `runs show` then lists those reads without answers)",
    )
    .addHelpText(
      'after',
      `
Configuration (flags win over the environment):
  CONNECTOR_API_URL         service base URL; unset: start the embedded service on ${EMBEDDED_DB} (demo data)
  CONNECTOR_CLIENT_ID       application client id (required with a URL)
  CONNECTOR_CLIENT_SECRET   application client secret (required with a URL)
  CONNECTOR_WORKSPACE       workspace for {definition} connector lookups (default "default")
  CONNECTOR_ORGANIZATION_ID organization sent as x-organization-id (accounts in several organizations)
  .env in the working directory (or --env-file FILE) fills in variables the environment does not set.
  The embedded database is ${EMBEDDED_DB} in the nearest folder (this one or above) that has one, else here.
${JOURNAL_HELP}
Exit codes: 0 ok, 1 run failed (also a false assert), 2 recipe or inputs invalid,
3 configuration or authentication, 130 interrupted (Ctrl-C).

Examples:
  recipe run recipes/pipeline-report.yaml
  recipe run recipes/stale-deals-follow-up.yaml -i days=30 --dry-run
  recipe run recipes/pipeline-report.yaml --json | jq .outputs
  recipe run recipes/pipeline-report.yaml --fixtures ci/crm.yaml --now 2026-07-15T09:00:00Z   hermetic`,
    )
    .action(async (file: string, flags: RunFlags) => {
      process.exitCode = await runCommand(file, flags);
    });
}

/** A progress view on stderr and an error printer that keeps --json's promise of one report on stdout. */
export function commandOutput(flags: RunFlags): CommandOutput {
  const stdoutTty = process.stdout.isTTY === true && process.stderr.isTTY === true;
  const color = useColor(process.env, stdoutTty);
  const view = new ProgressView({
    animate: stdoutTty && color && !flags.json && !flags.quiet,
    color,
    quiet: flags.quiet === true,
    verbose: flags.verbose === true,
    write: (t) => process.stderr.write(t),
  });
  const fail = (err: unknown): number => {
    const e =
      err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error)?.message ?? String(err) });
    process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
    // --json promises one report on stdout, even when the run could not start.
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify({ status: 'failed', error: { code: e.code, message: e.message } }, null, 2)}\n`,
      );
    return exitCodeFor(e.class);
  };
  return { view, fail };
}

async function runCommand(file: string, flags: RunFlags): Promise<number> {
  const out = commandOutput(flags);
  const { fail } = out;

  // 1. The recipe and its inputs: invalid → the same diagnostics as `recipe validate` (connector calls
  // checked against the catalog of the service the run talks to), exit 2, before anything is sent.
  // The recipe's own problems come first, as they did before inputs or the configuration were read.
  let read: Awaited<ReturnType<typeof readGivenInputs>> | undefined;
  let readError: unknown;
  try {
    read = await readGivenInputs(flags.inputs, flags.input);
  } catch (err) {
    readError = err;
  }
  let target: RunTarget | undefined;
  let targetError: unknown;
  try {
    target = runTarget(flags);
  } catch (err) {
    targetError = err;
  }
  if (target && !inMemoryService(flags)) {
    const printed = await printFinished(file, flags, out, runEdges);
    if (printed !== undefined) return printed;
  }
  const checked = await checkForTarget(file, target, flags, (message) => out.view.note(message));
  if (!checked.recipe) return invalid(checked.diagnostics, flags);
  if (!read?.values) return read ? invalid(read.diagnostics, flags) : fail(readError);
  const recipe = checked.recipe;
  const resolved = resolveInputs(recipe.plan, { ...read.values });
  if (resolved.diagnostics.length > 0) return invalid(resolved.diagnostics, flags);
  if (!target) return fail(targetError);
  const inputs = resolved.values;

  // 2. The journal (unless --no-journal): a --run-id it already has is resumed, or its report printed.
  let store: JournalStore | undefined;
  try {
    if (flags.callback !== undefined) (await import('../run-callback.js')).checkCallbackUrl(flags.callback);
    store = await openRunJournal(
      flags.journal === undefined && inMemoryService(flags) ? { ...flags, journal: ':memory:' } : flags,
    );
    if (store) await applyRetention(store, flags.retain, process.env);
    if (flags.runId !== undefined && store) {
      const known = await store.getRun(flags.runId);
      if (known) return await reuseRun(store, known, recipe.plan, inputs, flags, out, runEdges, target);
    }
    // A new run, journaled unless --no-journal (run/start-run.ts begins it in the journal).
    return await connectAndRun(recipe, flags, out, target, {
      inputs,
      dryRun: flags.dryRun === true,
      ...(flags.connector !== undefined ? { connectorId: flags.connector } : {}),
      ...(store ? { journal: store } : {}),
      ...(flags.runId !== undefined ? { runId: flags.runId } : {}),
    });
  } catch (err) {
    return fail(err);
  } finally {
    await store?.close();
  }
}

/**
 * A hermetic run (--fixtures without a database file) leaves nothing behind, its journal included: it is kept
 * in memory (a run against a service that ends with it has nothing to resume), unless --journal or
 * RECIPE_JOURNAL names a file.
 */
function inMemoryService(flags: RunFlags): boolean {
  return (
    flags.fixtures !== undefined && (flags.db === undefined || flags.db === ':memory:') && !process.env.RECIPE_JOURNAL
  );
}

/**
 * Connects (the configured service, else the embedded one) and starts the checked recipe through
 * run/start-run.ts (a new run, or a resume by `choice.prepare`) with Ctrl-C wired to cancel, then prints the
 * report.
 */
export async function connectAndRun(
  recipe: CheckedRecipe,
  flags: RunFlags,
  out: CommandOutput,
  target: RunTarget,
  choice: RunChoice,
): Promise<number> {
  const { view, fail } = out;
  let service: RunningService | undefined;
  let config: ConnectionConfig;
  let env = target.env;
  const notes = [...target.notes];
  try {
    if (target.config === undefined && flags.fixtures === undefined && !callsConnector(recipe.plan)) {
      config = noServiceConfig(target.workspace);
      if (flags.db !== undefined) notes.unshift(`--db: not opened, the recipe makes no connector call`);
    } else if (target.config === undefined) {
      const embedded = await startEmbedded(process.cwd(), {
        ...(flags.db !== undefined ? { db: flags.db } : {}),
        ...(flags.fixtures !== undefined ? { fixtures: flags.fixtures } : {}),
        ...(flags.now !== undefined ? { nowMs: flags.now } : {}),
      });
      service = embedded.service;
      const why = embeddedAsked(flags)
        ? flags.fixtures !== undefined
          ? '--fixtures'
          : '--db'
        : 'no CONNECTOR_API_URL';
      // First on stderr: which database this run reads and writes.
      notes.unshift(`${why}: using the embedded service at ${service.url} (${embedded.what})`);
      config = { baseUrl: service.url, ...service.credentials, workspace: target.workspace };
      // The organization is the configured service's: the embedded one has its own, and refuses another.
      env = { ...env, [ENV.organization]: undefined };
    } else {
      config = target.config;
    }
  } catch (err) {
    await service?.close();
    return fail(err);
  }
  for (const note of notes) view.note(note);

  // 3. Run, with Ctrl-C (or a CI runner's SIGTERM) aborting everything in flight: the run ends interrupted,
  // journaled and resumable, and its last spans are flushed. A second signal exits at once.
  const abort = new AbortController();
  const onSigint = (): void => {
    if (abort.signal.aborted) process.exit(ExitCode.interrupted);
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  let report: RunReport;
  let tracer: RunTracer | undefined;
  try {
    // OpenTelemetry is loaded only when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT asks for traces.
    tracer = await loadTracer(env, (message) => view.note(message));
    report = await startRun(recipe, {
      ...choice,
      connection: config,
      env,
      signal: abort.signal,
      // --now pins the run's clock: $run.started_at, $now() and $millis(), and what the journal records.
      ...(flags.now !== undefined ? { now: clockFrom(flags.now) } : {}),
      ...(tracer ? { tracer } : {}),
      log: (level, message) => view.log(level, message),
      debug: flags.verbose === true && flags.quiet !== true,
      onEvent: (e) => view.onEvent(e),
      // The view draws top-level steps only (run-output.ts).
      eventDepth: 0,
      ...(flags.retryFor !== undefined ? { retryForMs: flags.retryFor } : {}),
    });
    // Read answers (contact emails, note bodies) are kept only while the run may still be resumed.
    if (report.status === 'ok' && flags.dropReadAnswers === true && choice.journal)
      await choice.journal.dropReadAnswers(report.run_id);
  } catch (err) {
    view.finish();
    return fail(err);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await tracer?.shutdown().catch((err: unknown) => view.note(`traces not sent: ${(err as Error).message}`));
    await service?.close();
  }
  view.finish();
  if (flags.callback !== undefined)
    await (
      await import('../run-callback.js')
    ).postRunCallback(flags.callback, report, {
      env,
      journal: flags.journal,
      note: (line) => view.note(line),
    });
  const advice = flags.journal !== false ? failureAdvice(report) : undefined;
  if (advice) view.note(advice);
  return printReport(report, flags, abort.signal.aborted);
}

/**
 * The connection of a run that makes no connector call (callsConnector: no read or write, its calls included)
 * when no service is configured: the embedded service is not started for it, since opening, seeding and
 * indexing a database nobody reads costs about 2 s of CPU. The client fetches no token before a first call, so
 * nothing is sent; the address is a closed port, and the secret random so that masking it hides no real text.
 */
function noServiceConfig(workspace: string): ConnectionConfig {
  return { baseUrl: 'http://127.0.0.1:9', clientId: 'no-service', clientSecret: randomUUID(), workspace };
}

/** What the journal's commands (resume, run --run-id) run and print with. */
export const runEdges: RunEdges = { run: connectAndRun, print: printReport };

/** Prints a report (text or --json) and returns the exit code its status and error call for. */
export function printReport(report: RunReport, flags: RunFlags, interrupted: boolean): number {
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    if (report.status === 'ok') process.stdout.write(formatOutputs(report.outputs));
    if (report.dry_run_writes) process.stdout.write(formatDryRunWrites(report.dry_run_writes));
  }
  if (report.error) {
    const e = report.error;
    process.stderr.write(`${formatLocation(e)}${e.code} ${e.message}\n`);
  }
  if (report.status === 'ok') return ExitCode.ok;
  if (report.status === 'interrupted' || interrupted) return ExitCode.interrupted;
  const code = report.error?.code as keyof typeof catalog | undefined;
  return code && code in catalog ? exitCodeFor(catalog[code].class) : ExitCode.runFailed;
}

function invalid(diagnostics: Diagnostic[], flags: RunFlags): number {
  const lines = diagnostics.map((d) => formatDiagnostic(d));
  process.stderr.write(`${lines.join('\n')}\n`);
  if (flags.json) process.stdout.write(`${JSON.stringify({ status: 'invalid', diagnostics }, null, 2)}\n`);
  return ExitCode.invalid;
}
