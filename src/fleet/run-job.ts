import { DelayedError, UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { resolveInputs } from '../compile/index.js';
import type { Plan } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { RunRecord } from '../journal/index.js';
import {
  beginRun,
  checkRecipe,
  maskedOf,
  maskProjectSecrets,
  resumeRun,
  startRun,
  type DurableRun,
  type RunReport,
} from '../run/index.js';
import { runIdOfJob, scheduleOffsetMs, tickOfJob, type RunJobData, type RunJobResult } from './job.js';
import type { ResumeFlags } from '../run/index.js';
import { isTransientFailure } from './transient.js';
import { distributorForRunJob } from './distribute/index.js';
import { originOfJob, postJobCallback } from './job-callback.js';
import { checkRunJobData } from './job-data.js';
import { checkPins, localPath } from './recipe-pin.js';
import { checkLockHash } from '../packages/index.js';
import type { WorkerContext } from './worker-context.js';

/**
 * Processes a run job: checks this worker's copy of the recipe against the job's pins, then runs it with
 * the fleet's journal — a new run, or (the job came back: its worker died, or handed it back at shutdown)
 * a resume from the journal with `recipe resume`'s guarantees: recorded calls replay, nothing is sent
 * twice, writes in doubt are settled or the job fails with J004. A run that already ended is not run
 * again: its recorded report is the job's result, so a job delivered twice runs once.
 *
 * A failed run fails the job for good (UnrecoverableError: running it again would redrive it, which is
 * `recipe resume`'s decision, not the queue's); a failure to reach Redis or the service before the run
 * starts throws a plain error, which the queue retries by its policy.
 */
export async function processRunJob(
  job: Job<RunJobData>,
  token: string | undefined,
  signal: AbortSignal | undefined,
  ctx: WorkerContext,
): Promise<RunJobResult> {
  const jobId = job.id ?? '?';
  const data = unrecoverable(() => checkRunJobData(job.data, jobId));
  const runId = runIdOfJob(job.id, data);
  if (runId === undefined)
    throw new UnrecoverableError(new RecipeError('F004', { jobId, reason: 'it has no run id' }).message);
  if (await delayedByJitter(job, data, token)) throw new DelayedError();
  const file = unrecoverable(() => localPath(ctx.recipesDir, data.recipe, jobId));
  await unrecoverableAsync(() =>
    checkPins(ctx.recipesDir, [{ path: data.recipe, sha256: data.sha256 }, ...data.files], jobId),
  );
  await unrecoverableAsync(() => checkLockHash(file, data.lock_sha256));
  // Checked as `recipe validate` checks it, against the catalog of this worker's service: a recipe with an
  // error fails its job before a single request.
  const catalog = await ctx.catalog();
  const { recipe, diagnostics } = await checkRecipe(file, catalog ? { catalog } : {});
  if (!recipe) {
    const first = diagnostics[0];
    throw new UnrecoverableError(
      `${first?.file}:${first?.line}:${first?.column}: ${first?.code} ${first?.message ?? 'invalid recipe'}`,
    );
  }
  const plan = recipe.plan;

  const client = ctx.newClient();
  // The secrets of every recipe in the worker's folder are masked from the start (the journal's first record).
  maskProjectSecrets(client.redactor, ctx.env, ctx.recipesDir);
  try {
    const taken = await takeRun(ctx, job, data, plan, runId, client, token);
    if ('ended' in taken) {
      ctx.log(`run ${runId} already ${taken.ended.status}: its recorded report is the job's result`);
      return await ended(parseReport(taken.ended), ctx, job, data);
    }
    const { prepared, why } = taken;
    ctx.log(`run ${runId} ${why ? `${why} (attempt ${prepared.durable.attempt})` : 'started'}: ${data.recipe}`);
    for (const w of recipe.warnings) ctx.log(`run ${runId}: ${w.file}:${w.line}:${w.column}: ${w.code} ${w.message}`);
    const report = await startRun(recipe, {
      client,
      redactor: client.redactor,
      env: ctx.env,
      projectDir: ctx.recipesDir,
      ...(signal ? { signal } : {}),
      prepare: () => Promise.resolve(prepared),
      distributor: distributorForRunJob(job, ctx),
      ...(ctx.tracer ? { tracer: ctx.tracer } : {}),
      log: (level, message) => {
        if (level !== 'debug') ctx.log(`run ${runId}: ${message}`);
      },
    });
    if (report.status === 'interrupted' && signal?.aborted && token !== undefined) {
      // Shut down before the run ended: its journal says cancelled; the next worker resumes it.
      ctx.log(`run ${runId} handed back to the queue (worker shutting down)`);
      await job.moveToWait(token);
      throw new WaitingError();
    }
    // Awaited here, so that the job's failure is thrown before the finally (as finished() throws it).
    return await ended(report, ctx, job, data);
  } finally {
    await client.close();
  }
}

/** Beyond a lease's period, how long a job waits for its run's lease to run out (a renewal in flight). */
const LEASE_MARGIN_MS = 2000;

/**
 * Takes hold of the job's run: begins it, or resumes it from the journal; or finds it ended, its recorded
 * report then being the job's result. A run still held by another worker (J003: the worker that had the job
 * just died, and its lease has not run out yet; or it is finishing the run after the queue wrongly thought it
 * stalled) is waited for, at most the lease's period: a dead holder's lease runs out by then, a live holder's
 * run may have ended. Still held after that, the holder is alive and renewing: the job goes back to the
 * delayed set for a lease's period, without spending one of its attempts (a J003 thrown would spend one, and
 * fail the job for good after three while the run goes on).
 */
async function takeRun(
  ctx: WorkerContext,
  job: Job<RunJobData>,
  data: RunJobData,
  plan: Plan,
  runId: string,
  client: ReturnType<WorkerContext['newClient']>,
  token: string | undefined,
): Promise<{ ended: RunRecord } | { prepared: PreparedJob; why: string | undefined }> {
  const deadline = Date.now() + ctx.journal.leaseMs + LEASE_MARGIN_MS;
  for (;;) {
    const recorded = await settledRecord(ctx, runId, deadline);
    const again = recorded ? await resumeFlagsFor(ctx, job, data, recorded) : undefined;
    if (recorded && !again) return { ended: recorded };
    try {
      const takeover = recorded && again ? await leaseRanOut(ctx, recorded) : false;
      const prepared =
        recorded && again
          ? await resumeJob(ctx, recorded, plan, client, data.inputs, again.flags)
          : await beginJob(ctx, data, plan, runId, client);
      if (takeover) ctx.tracer?.fleet?.leaseTakenOver(ctx.queue);
      return {
        prepared,
        why: takeover ? `${again?.why ?? 'resumed'}, taken over from a holder whose lease ran out` : again?.why,
      };
    } catch (err) {
      // J006: another worker began the run between our read and our begin (the job delivered twice): read again.
      const held = err instanceof RecipeError && (err.code === 'J003' || err.code === 'J006');
      if (!held) throw err;
      if (Date.now() > deadline) {
        if (token === undefined) throw err;
        ctx.log(`run ${runId} is still held by a live worker: job ${job.id ?? '?'} waits ${ctx.journal.leaseMs} ms`);
        await job.moveToDelayed(Date.now() + ctx.journal.leaseMs, token);
        throw new DelayedError();
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** No flags: what a resume the queue makes (a worker died, a transient failure) settles by itself. */
const QUEUE_RESUME: ResumeFlags = { allowChanged: false, retryFailedItems: false, assumeSent: [], assumeNotSent: [] };

/**
 * Whether a run the journal already has is run again, and with which flags: an interrupted or cancelled run
 * is resumed (its worker died or handed it back); a failed run is redriven when an operator asked for it
 * (`recipe resume --redis`, once per request) or when the queue requeued it after a transient failure; a
 * succeeded run, or a run failed for good, is not (its recorded report is the job's result).
 */
async function resumeFlagsFor(
  ctx: WorkerContext,
  job: Job<RunJobData>,
  data: RunJobData,
  record: RunRecord,
): Promise<{ flags: ResumeFlags; why: string } | undefined> {
  if (record.status === 'succeeded') return undefined;
  const asked = data.redrive;
  if (asked) {
    const attempts = await ctx.journal.listAttempts(record.run_id);
    const last = attempts[attempts.length - 1];
    if (!last || Date.parse(last.started_at) < asked.requested_at)
      return {
        why: record.status === 'failed' ? 'redriven on request' : 'resumed on request',
        flags: {
          allowChanged: asked.allow_changed,
          retryFailedItems: asked.retry_failed_items,
          assumeSent: [...asked.assume_sent],
          assumeNotSent: [...asked.assume_not_sent],
        },
      };
  }
  if (record.status !== 'failed') return { why: 'resumed', flags: QUEUE_RESUME };
  if (job.attemptsMade > 0 && isTransientFailure(record.error))
    return { why: `redriven after a transient failure (${String(record.error?.code)})`, flags: QUEUE_RESUME };
  return undefined;
}

/**
 * A schedule's tick with --jitter waits for its stable offset once (the tick's job is moved to the delayed
 * set, marked so that it is not delayed again): true when it was delayed.
 */
async function delayedByJitter(job: Job<RunJobData>, data: RunJobData, token: string | undefined): Promise<boolean> {
  if (data.schedule === undefined || !data.jitter_ms || data.jittered || token === undefined) return false;
  const at = (tickOfJob(job.id) ?? job.timestamp) + scheduleOffsetMs(data.schedule, data.jitter_ms);
  if (at <= Date.now()) return false;
  await job.updateData({ ...data, jittered: true });
  await job.moveToDelayed(at, token);
  return true;
}

interface PreparedJob {
  readonly durable: DurableRun;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly dryRun: boolean;
  readonly connectorId?: string;
}

async function beginJob(
  ctx: WorkerContext,
  data: RunJobData,
  plan: Plan,
  runId: string,
  client: ReturnType<WorkerContext['newClient']>,
): Promise<PreparedJob> {
  const inputs = resolveInputs(plan, { ...data.inputs });
  if (inputs.diagnostics.length > 0) {
    const first = inputs.diagnostics[0];
    throw new UnrecoverableError(`${first?.code} ${first?.message}`);
  }
  const durable = await beginRun({
    store: ctx.journal,
    plan,
    inputs: inputs.values,
    runId,
    dryRun: data.dry_run === true,
    ...(data.connector !== undefined ? { connectorId: data.connector } : {}),
    ...withOrigin(originOfJob(data, runId)),
    redactor: client.redactor,
    env: ctx.env,
  });
  return {
    durable,
    inputs: inputs.values,
    dryRun: data.dry_run === true,
    ...(data.connector !== undefined ? { connectorId: data.connector } : {}),
  };
}

async function resumeJob(
  ctx: WorkerContext,
  record: RunRecord,
  plan: Plan,
  client: ReturnType<WorkerContext['newClient']>,
  submitted: Readonly<Record<string, unknown>>,
  flags: ResumeFlags,
): Promise<PreparedJob> {
  try {
    const prepared = await resumeRun({
      // The job holds the inputs as submitted: those the journal kept masked (they held a secret) come from it.
      given: maskedOf(record, resolveInputs(plan, { ...submitted }).values),
      store: ctx.journal,
      record,
      plan,
      client,
      flags,
      redactor: client.redactor,
      env: ctx.env,
    });
    const inputs = resolveInputs(plan, prepared.inputs);
    return { ...prepared, inputs: inputs.values };
  } catch (err) {
    // J002 (the recipe changed under the run), J004 (writes in doubt nothing settles): a person decides.
    if (err instanceof RecipeError && err.code !== 'J003') throw new UnrecoverableError(`${err.code} ${err.message}`);
    throw err;
  }
}

/**
 * True when the run's last attempt never recorded an end and nobody holds it: its holder died (or stalled past
 * its lease) mid-run, and this worker is taking it over (the recipe.lease.takeovers metric). A run handed back
 * at a worker's shutdown, or failed, recorded its end.
 */
async function leaseRanOut(ctx: WorkerContext, record: RunRecord): Promise<boolean> {
  if (record.status !== 'interrupted') return false;
  const last = (await ctx.journal.listAttempts(record.run_id)).at(-1);
  return last !== undefined && last.ended_at === null;
}

/**
 * The run's record; when the journal still shows it held (the worker that died had renewed its lease
 * shortly before), waits for the lease to run out, as the queue waited for the job's lock.
 */
async function settledRecord(ctx: WorkerContext, runId: string, deadline: number): Promise<RunRecord | undefined> {
  for (;;) {
    const record = await ctx.journal.getRun(runId);
    if (record?.status !== 'running' || Date.now() > deadline) return record;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function parseReport(record: RunRecord): RunReport {
  return JSON.parse(record.report ?? '{}') as RunReport;
}

function withOrigin(origin: Readonly<Record<string, unknown>> | undefined): {
  origin?: Readonly<Record<string, unknown>>;
} {
  return origin !== undefined ? { origin } : {};
}

/** A run that failed for a transient cause while its job has attempts left: the queue runs it again. */
function requeued(report: RunReport, job: Job<RunJobData>): boolean {
  return (
    report.status === 'failed' && isTransientFailure(report.error) && job.attemptsMade + 1 < (job.opts.attempts ?? 1)
  );
}

/** The job's result (finished), once the run's result callback, if it has one and the run is over, was posted. */
async function ended(
  report: RunReport,
  ctx: WorkerContext,
  job: Job<RunJobData>,
  data: RunJobData,
): Promise<RunJobResult> {
  const callback =
    data.callback && !requeued(report, job) ? await postJobCallback(ctx, data.callback, report) : undefined;
  const result = finished(report, ctx, job);
  return callback ? { ...result, callback } : result;
}

/**
 * The job's result. A run that failed for a transient cause (isTransientFailure) fails the job for the queue
 * to retry with its backoff while the job has attempts left: the next attempt redrives the same run. Any other
 * failure fails the job for good, with the report kept in the journal.
 */
function finished(report: RunReport, ctx: WorkerContext, job: Job<RunJobData>): RunJobResult {
  if (report.status !== 'ok') {
    const e = report.error;
    const allowed = job.opts.attempts ?? 1;
    if (requeued(report, job)) {
      ctx.log(
        `run ${report.run_id} failed for a transient cause (${e?.code}): requeued (attempt ${job.attemptsMade + 1} of ${allowed})`,
      );
      throw new Error(`run ${report.run_id} failed: ${e?.code} ${e?.message} (requeued: a transient cause)`);
    }
    throw new UnrecoverableError(
      `run ${report.run_id} ${report.status}${e ? `: ${e.code} ${e.message}` : ''} (its report is in the journal)`,
    );
  }
  return {
    run_id: report.run_id,
    status: report.status,
    error_code: report.error?.code ?? null,
    report: JSON.stringify(report),
    worker: ctx.workerName,
  };
}

function unrecoverable<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw asUnrecoverable(err);
  }
}

async function unrecoverableAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw asUnrecoverable(err);
  }
}

function asUnrecoverable(err: unknown): unknown {
  return err instanceof RecipeError ? new UnrecoverableError(`${err.code} ${err.message}`) : err;
}
