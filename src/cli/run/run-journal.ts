import { resolve } from 'node:path';
import { resolveInputs } from '../../compile/index.js';
import type { Plan } from '../../compile/plan.js';
import { parseDurationMs } from '../../client/index.js';
import { RecipeError } from '../../errors/index.js';
import type { JournalStore, RunRecord } from '../../journal/index.js';
import {
  changedInputs,
  checkRecipe,
  isValidRunId,
  maskedOf,
  resumeRun,
  type CheckedRecipe,
  type ResumeFlags,
  type RunReport,
} from '../../run/index.js';
import { formatDiagnostic } from '../../source/index.js';
import { ExitCode } from '../exit-codes.js';
import { findRecipeDir } from './run-embedded.js';
import { readGivenInputs } from './run-inputs.js';
import { checkForTarget, type RunTarget } from './run-target.js';
import type { CommandOutput, JournalFlags, RunChoice, RunFlags } from './run-types.js';

/** The journal's lines in --help. */
export const JOURNAL_HELP = `  RECIPE_JOURNAL            the run journal (default .recipe/runs.db); --journal wins, --no-journal turns it off
`;

/**
 * The journal the flags name, or undefined with --no-journal (then --run-id is a usage error). The journal
 * (SQLite) is loaded only here, so a run with --no-journal never loads it.
 */
export async function openRunJournal(flags: JournalFlags): Promise<JournalStore | undefined> {
  if (flags.runId !== undefined && !isValidRunId(flags.runId))
    throw new RecipeError('J008', {
      flag: `--run-id ${flags.runId}`,
      reason: 'a run id is 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit',
    });
  if (flags.journal === false) {
    if (flags.runId !== undefined)
      throw new RecipeError('J008', { flag: '--run-id', reason: 'needs the journal; drop --no-journal' });
    return undefined;
  }
  // open.js, not the folder's index: the index also carries the Redis and PostgreSQL backends (~6 ms to load).
  const { journalPath, openJournal } = await import('../../journal/open.js');
  return openJournal(journalPath(flags.journal, process.env, process.cwd(), findRecipeDir(process.cwd())));
}

/** Runs a start prunes at most (the oldest first): retention is spread over starts, never a long pause. */
const RETAIN_BATCH = 200;

/**
 * Retention (`--retain DURATION`, else RECIPE_RETAIN): at a run's start, runs that ended longer ago than that
 * are pruned from the journal, at most RETAIN_BATCH of them. Returns how many; C014 for a bad RECIPE_RETAIN.
 */
export async function applyRetention(
  store: JournalStore,
  flag: number | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const ms = retentionMs(flag, env);
  if (ms === undefined || ms === 0) return 0;
  return store.prune(Date.now() - ms, RETAIN_BATCH);
}

/** The retention --retain gives, else RECIPE_RETAIN (C014 when it is not a duration); undefined: keep all. */
export function retentionMs(
  flag: number | undefined,
  env: Readonly<Record<string, string | undefined>>,
): number | undefined {
  const text = env.RECIPE_RETAIN;
  if (flag !== undefined || text === undefined || text === '') return flag;
  const ms = parseDurationMs(text);
  if (ms === undefined) throw new RecipeError('C014', { what: 'RECIPE_RETAIN', value: text });
  return ms;
}

/** run.ts's connect-run-print and report printer, passed in so that this file does not import run.ts. */
export interface RunEdges {
  run(
    recipe: CheckedRecipe,
    flags: RunFlags,
    out: CommandOutput,
    target: RunTarget,
    choice: RunChoice,
  ): Promise<number>;
  print(report: RunReport, flags: RunFlags, interrupted: boolean): number;
}

/**
 * `recipe run FILE --run-id ID` for an id the journal has: a finished run (succeeded or failed) prints its
 * recorded report again and sends nothing (a retried CI job is idempotent); an interrupted or cancelled one
 * is resumed, with the inputs it started with (other inputs are a usage error); a running one is J003.
 */
export async function reuseRun(
  store: JournalStore,
  record: RunRecord,
  plan: Plan,
  inputs: Readonly<Record<string, unknown>>,
  flags: RunFlags,
  out: CommandOutput,
  edges: RunEdges,
  target: RunTarget,
): Promise<number> {
  if (record.file !== plan.file)
    throw new RecipeError('J008', { flag: `--run-id ${record.run_id}`, reason: `it is a run of ${record.file}` });
  // Inputs the journal kept masked are compared by the resume itself, masked (resumeRun, J010).
  const changed = changedInputs(record, inputs);
  if (changed.length > 0) throw reusedRunId(record, changed);
  if (record.status === 'succeeded' || record.status === 'failed') return printRecorded(record, flags, out, edges);
  return resumeRecorded(
    store,
    record,
    flags,
    out,
    edges,
    target,
    { allowChanged: false, retryFailedItems: false, assumeSent: [], assumeNotSent: [] },
    maskedOf(record, inputs),
  );
}

/** Resumes a recorded run under its recipe as it is now on disk (checked against the recorded hashes). */
export async function resumeRecorded(
  store: JournalStore,
  record: RunRecord,
  flags: RunFlags,
  out: CommandOutput,
  edges: RunEdges,
  target: RunTarget,
  resume: ResumeFlags,
  /** Values given again for the inputs the journal kept masked. */
  given: Readonly<Record<string, unknown>> = {},
): Promise<number> {
  if (record.status === 'running')
    throw new RecipeError('J003', { runId: record.run_id, holder: describeHolder(record.holder) });
  // The recipe as it is now on disk, checked as a new run's is (against the catalog of the service).
  const { recipe, diagnostics } = await checkForTarget(record.file, target, flags, (message) => out.view.note(message));
  if (!recipe) {
    process.stderr.write(`${diagnostics.map((d) => formatDiagnostic(d)).join('\n')}\n`);
    if (flags.json) process.stdout.write(`${JSON.stringify({ status: 'invalid', diagnostics }, null, 2)}\n`);
    return ExitCode.invalid;
  }
  const plan = recipe.plan;
  return edges.run(recipe, flags, out, target, {
    prepare: async (client, env) => {
      const prepared = await resumeRun({
        store,
        record,
        plan,
        client,
        flags: resume,
        redactor: client.redactor,
        env,
        given,
      });
      // The recorded values were resolved when the run started; resolving them again applies today's defaults
      // to inputs the recipe (changed, with --allow-changed) declares now.
      const resolved = resolveInputs(plan, prepared.inputs);
      if (resolved.diagnostics.length > 0) {
        await prepared.durable.journal.release();
        const first = resolved.diagnostics[0];
        throw new RecipeError('J008', {
          flag: `resume ${record.run_id}`,
          reason: `the recorded inputs no longer fit the recipe: ${first?.code} ${first?.message}`,
        });
      }
      if (flags.json !== true)
        out.view.note(`resuming run ${record.run_id} (${record.status}, attempt ${prepared.durable.attempt})`);
      return {
        inputs: resolved.values,
        dryRun: prepared.dryRun,
        ...(prepared.connectorId !== undefined ? { connectorId: prepared.connectorId } : {}),
        durable: prepared.durable,
      };
    },
  });
}

/**
 * `recipe run FILE --run-id ID` for a run of FILE that already finished (a retried CI job): its recorded
 * report, printed before anything else is done (nothing runs, so not even the service's catalog is read).
 * Undefined when there is no such run; every problem is left to the command's own path to report.
 */
export async function printFinished(
  file: string,
  flags: RunFlags,
  out: CommandOutput,
  edges: RunEdges,
): Promise<number | undefined> {
  if (flags.runId === undefined || flags.journal === false || !isValidRunId(flags.runId)) return undefined;
  let store: JournalStore | undefined;
  try {
    store = await openRunJournal(flags);
    const record = await store?.getRun(flags.runId);
    if (!record || (record.status !== 'succeeded' && record.status !== 'failed')) return undefined;
    if (record.file !== resolve(file)) return undefined;
    const changed = await changedGivenInputs(file, flags, record);
    if (changed === undefined) return undefined;
    return changed.length > 0 ? out.fail(reusedRunId(record, changed)) : printRecorded(record, flags, out, edges);
  } catch {
    return undefined;
  } finally {
    await store?.close();
  }
}

/**
 * The inputs the command line gives otherwise than the finished run started with, the recipe checked as
 * `validate` does without the service; undefined when the recipe or the inputs are invalid (the command's own
 * path reports that).
 */
async function changedGivenInputs(file: string, flags: RunFlags, record: RunRecord): Promise<string[] | undefined> {
  const { recipe } = await checkRecipe(resolve(file));
  if (!recipe) return undefined;
  const read = await readGivenInputs(flags.inputs, flags.input);
  if (!read.values) return undefined;
  const resolved = resolveInputs(recipe.plan, { ...read.values });
  return resolved.diagnostics.length > 0 ? undefined : changedInputs(record, resolved.values);
}

/** J021: a run id names one run; given again with other inputs, it is refused instead of answered with the old run. */
export function reusedRunId(record: RunRecord, changed: readonly string[]): RecipeError {
  const unfinished = record.status !== 'succeeded' && record.status !== 'failed';
  return new RecipeError('J021', {
    runId: record.run_id,
    status: record.status,
    names: changed.join(', '),
    hint: unfinished
      ? `; to go on with that run: \`recipe resume ${record.run_id}\` (it takes its recorded inputs)`
      : '',
  });
}

/** The run's recorded report, printed as `recipe run` printed it; its exit code. Nothing is sent. */
export function printRecorded(record: RunRecord, flags: RunFlags, out: CommandOutput, edges: RunEdges): number {
  out.view.note(`run ${record.run_id} already ${record.status}: its recorded report (nothing sent)`);
  const report = JSON.parse(record.report ?? '{}') as RunReport;
  return edges.print(report, flags, false);
}

function describeHolder(holder: Record<string, unknown> | null): string {
  if (!holder) return 'another process';
  return `pid ${String(holder.pid ?? '?')} on ${String(holder.host ?? '?')} since ${String(holder.since ?? '?')}`;
}
