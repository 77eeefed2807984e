import type { Redactor } from '../client/index.js';
import type { Plan } from '../compile/plan.js';
import { coerceInput } from '../compile/index.js';
import { RecipeError } from '../errors/index.js';
import type { JournalStore, RecipeFileHash, RunRecord } from '../journal/index.js';
import type { ConnectorApi } from '../frame/run-context.js';
import { calledPackages, declaredSecrets, hashRecipeFiles } from './recipe-files.js';
import { newRunId } from './run-id.js';
import type { DurableRun } from './run-plan.js';
import { planSettlement } from '../calls/settle-plan.js';

/** What starting a journaled run needs. */
export interface BeginRunOptions {
  readonly store: JournalStore;
  readonly plan: Plan;
  /** Resolved input values (journaled masked; a resume runs with them). */
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly runId?: string;
  readonly dryRun: boolean;
  readonly connectorId?: string;
  /** Who started the run (a trigger delivery, an MCP caller): journaled as the options' `origin`. */
  readonly origin?: Readonly<Record<string, unknown>>;
  /** Masks secrets: the recipe's declared secrets are added to it before anything is journaled. */
  readonly redactor: Redactor;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  readonly random?: () => number;
}

/** Starts a run in the journal (attempt 1): its id, recipe, file hashes, masked inputs and options. */
export async function beginRun(o: BeginRunOptions): Promise<DurableRun> {
  for (const name of declaredSecrets(o.plan)) o.redactor.add(o.env[name]);
  const runId = o.runId ?? newRunId(o.random ?? Math.random);
  const startedAt = (o.now ?? Date.now)();
  const inputs = o.redactor.redactValue({ ...o.inputs });
  // An input that held a secret value is kept masked: a resume asks for it again (J010) rather than run on ***.
  const masked = Object.keys(inputs).filter((k) => JSON.stringify(inputs[k]) !== JSON.stringify(o.inputs[k]));
  const packages = calledPackages(o.plan);
  const journal = await o.store.begin({
    run_id: runId,
    recipe: o.plan.name,
    file: o.plan.file,
    files: await hashRecipeFiles(o.plan),
    inputs,
    started_at: startedAt,
    dry_run: o.dryRun,
    options: {
      ...(o.connectorId !== undefined ? { connector: o.connectorId } : {}),
      ...(masked.length > 0 ? { masked_inputs: masked } : {}),
      ...(o.origin !== undefined ? { origin: o.redactor.redactValue({ ...o.origin }) } : {}),
      // The shared packages it calls and the commit or version each resolved to (`recipe runs show`).
      ...(packages.length > 0 ? { packages: o.redactor.redactValue(packages) } : {}),
    },
  });
  return { journal, runId, startedAt, attempt: 1, ...(masked.length > 0 ? { maskedInputs: masked } : {}) };
}

/** A resume's flags (`recipe resume`); `recipe run --run-id` of an unfinished run resumes with none set. */
export interface ResumeFlags {
  readonly allowChanged: boolean;
  readonly retryFailedItems: boolean;
  readonly assumeSent: readonly string[];
  readonly assumeNotSent: readonly string[];
}

/** What resuming needs: the run's record (read by the caller to load its recipe) and that recipe now. */
export interface ResumeRunOptions {
  readonly store: JournalStore;
  readonly record: RunRecord;
  readonly plan: Plan;
  readonly client: ConnectorApi;
  readonly flags: ResumeFlags;
  readonly redactor: Redactor;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  /** Values given again for the inputs the journal kept masked (see maskedInputs); no other input may be given. */
  readonly given?: Readonly<Record<string, unknown>>;
}

/** What a resume runs with: the journaled run, the recorded inputs and options. */
export interface PreparedResume {
  readonly durable: DurableRun;
  readonly inputs: Record<string, unknown>;
  readonly dryRun: boolean;
  readonly connectorId?: string;
}

/**
 * Prepares a resume of an interrupted, cancelled or failed run, before anything is sent: the recipe and the
 * files it calls must hash as recorded (J002, unless --allow-changed), every write in doubt must have a way
 * to settle (J004 lists those that have none), then the run is taken hold of for a new attempt (J003 when a
 * live process holds it). A failed run's resume is a redrive: the call that failed it is sent again.
 */
export async function resumeRun(o: ResumeRunOptions): Promise<PreparedResume> {
  const { record, plan } = o;
  for (const name of declaredSecrets(plan)) o.redactor.add(o.env[name]);
  if (record.status === 'running')
    throw new RecipeError('J003', { runId: record.run_id, holder: holderText(record.holder) });
  const changed = changedFiles(record.files, await hashRecipeFiles(plan));
  if (changed.length > 0 && !o.flags.allowChanged) {
    throw new RecipeError(
      'J002',
      {
        runId: record.run_id,
        changed: changed.map((c) => c.path).join(', '),
        detail: changed.map((c) => c.what).join('; '),
      },
      { file: changed[0]?.path },
    );
  }
  const inputs = restoredInputs(record, plan, o.given ?? {}, o.redactor);
  const redrive = record.status === 'failed';
  const inDoubt = (await o.store.writesInDoubt(record.run_id)).filter(
    (w) => w.state !== 'failed' || o.flags.retryFailedItems || (redrive && w.call_key === record.failed_call),
  );
  const settle = await planSettlement(inDoubt, o.flags, {
    runId: record.run_id,
    plan,
    honoursIdempotencyKeys: async () =>
      record.idempotency === 'honoured' ||
      o.client.idempotencyHonoured === true ||
      ((await o.client.probeIdempotencyKeys?.()) ?? false),
  });
  const journal = await o.store.resume(record.run_id, {
    kind: redrive ? 'redrive' : 'resume',
    started_at: (o.now ?? Date.now)(),
    options: {
      allow_changed: o.flags.allowChanged,
      retry_failed_items: o.flags.retryFailedItems,
      assume_sent: o.flags.assumeSent,
      assume_not_sent: o.flags.assumeNotSent,
      ...(changed.length > 0 ? { changed_files: changed.map((c) => c.path) } : {}),
    },
  });
  const connector = record.options.connector;
  return {
    durable: {
      journal,
      runId: record.run_id,
      startedAt: Date.parse(record.started_at),
      attempt: journal.attempt,
      resumedFrom: { attempt: journal.attempt - 1, status: record.status },
      replay: { failedCall: redrive ? record.failed_call : null, retryFailedItems: o.flags.retryFailedItems, settle },
    },
    inputs,
    dryRun: record.dry_run,
    ...(typeof connector === 'string' ? { connectorId: connector } : {}),
  };
}

/** The inputs of a run the journal could keep only masked, because they held a secret value. */
export function maskedInputs(record: RunRecord): string[] {
  const names = record.options.masked_inputs;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

/**
 * The names of the inputs `given` (resolved) gives otherwise than run `record` started with: a run id reused
 * with other inputs is another run, refused (J021), as Step Functions answers ExecutionAlreadyExists. Inputs the
 * journal kept masked are left out (a resume compares them masked, J010).
 */
export function changedInputs(record: RunRecord, given: Readonly<Record<string, unknown>>): string[] {
  const masked = maskedInputs(record);
  const names = new Set([...Object.keys(record.inputs), ...Object.keys(given)]);
  return [...names]
    .filter((n) => !masked.includes(n) && JSON.stringify(given[n]) !== JSON.stringify(record.inputs[n]))
    .sort();
}

/** Of `values` (inputs as given to a run again), those the journal kept masked: what resumeRun's `given` takes. */
export function maskedOf(record: RunRecord, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const masked = maskedInputs(record);
  return Object.fromEntries(Object.entries(values).filter(([name]) => masked.includes(name)));
}

/**
 * The recorded inputs, with each masked one given again: J010 when one is missing, or when, masked, it is not
 * what the run started with (another value, or its secret changed); J008 for any other input given (a resume
 * runs with the inputs its run started with). Checked before anything is sent.
 */
function restoredInputs(
  record: RunRecord,
  plan: Plan,
  given: Readonly<Record<string, unknown>>,
  redactor: Redactor,
): Record<string, unknown> {
  const masked = maskedInputs(record);
  for (const name of Object.keys(given))
    if (!masked.includes(name))
      throw new RecipeError('J008', {
        flag: `--input ${name}`,
        reason: `run ${record.run_id} resumes with the inputs it started with; only an input the journal kept masked (${masked.join(', ') || 'none'}) is given again`,
      });
  const inputs: Record<string, unknown> = { ...record.inputs };
  for (const name of masked) {
    if (!Object.hasOwn(given, name)) throw new RecipeError('J010', { runId: record.run_id, name, problem: 'give it' });
    const value = given[name];
    // `-i` gives text; the run recorded the value coerced to the declared type (a list, a number...).
    const type = plan.inputs[name]?.type;
    const coerced = type === undefined ? { ok: true, value } : coerceInput(value, type);
    if (!coerced.ok || JSON.stringify(redactor.redactValue(coerced.value)) !== JSON.stringify(record.inputs[name]))
      throw new RecipeError('J010', {
        runId: record.run_id,
        name,
        problem:
          'the value given differs from the one the run started with (or the secret it held changed); give that one',
      });
    inputs[name] = coerced.value;
  }
  return inputs;
}

/** Files whose content differs from what the run recorded (or that appeared or disappeared). */
function changedFiles(
  recorded: readonly RecipeFileHash[],
  now: readonly RecipeFileHash[],
): { path: string; what: string }[] {
  const before = new Map(recorded.map((f) => [f.path, f.sha256]));
  const after = new Map(now.map((f) => [f.path, f.sha256]));
  const out: { path: string; what: string }[] = [];
  for (const [path, hash] of before) {
    const current = after.get(path);
    if (current === undefined) out.push({ path, what: `${path} is no longer called` });
    else if (current === 'missing') out.push({ path, what: `${path} is missing` });
    else if (current !== hash)
      out.push({ path, what: `${path} hashes ${current.slice(0, 12)}, was ${hash.slice(0, 12)}` });
  }
  for (const path of after.keys()) if (!before.has(path)) out.push({ path, what: `${path} is called now and was not` });
  return out;
}

function holderText(holder: Record<string, unknown> | null): string {
  if (!holder) return 'another process';
  return `pid ${String(holder.pid ?? '?')} on ${String(holder.host ?? '?')} since ${String(holder.since ?? '?')}`;
}
