import { createHash, randomBytes } from 'node:crypto';
import { RecipeError } from '../errors/index.js';
import { evalValue } from '../expr/index.js';
import type { RunReport } from '../run/index.js';
import type { CallbackOutcome } from './callback.js';
import { sendCallback } from './callback.js';
import type { DeliveryStore } from './deliveries.js';
import { TriggerHttpError } from './errors.js';
import type { FleetRuns, RunEnd } from './fleet-runs.js';
import { fleetRunIdOf } from './fleet-runs.js';
import type { LocalRunner, ReadyRun } from './local-runner.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, verifySignature } from './signature.js';
import type { Trigger } from './trigger-file.js';

/** What answering a delivery needs: the runner, the delivery ids, the environment (secrets), the clock. */
export interface DeliveryDeps {
  readonly runner: LocalRunner;
  /** Where `runs_on: fleet` triggers enqueue their runs (absent: no trigger runs on the fleet). */
  readonly fleet?: FleetRuns;
  readonly store: DeliveryStore;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** The waits between callback attempts (tests pass quick ones). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** One accepted delivery: its run id, whether this request started it, and the run while it is in this process. */
export interface Accepted {
  readonly runId: string;
  readonly deliveryId: string;
  readonly duplicate: boolean;
}

/** Headers a template may read as $headers: never the signature or a token. */
const HIDDEN_HEADERS = new Set([SIGNATURE_HEADER, 'authorization', 'cookie']);

/**
 * Answers deliveries: verifies, validates, maps the payload to inputs, checks the recipe, claims the delivery
 * id, starts the run. Every refusal is a TriggerHttpError thrown before anything is claimed or started.
 */
export class Deliveries {
  /** Runs started by this process and not yet ended (and their callbacks): ?wait and redeliveries await them. */
  private readonly inFlight = new Map<string, Promise<RunReport>>();
  private readonly callbacks = new Set<Promise<CallbackOutcome>>();

  constructor(private readonly deps: DeliveryDeps) {}

  async accept(
    trigger: Trigger,
    raw: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<Accepted> {
    const now = this.deps.now ?? Date.now;
    if (raw.length > trigger.maxBody) throw new TriggerHttpError('G016', { limit: trigger.maxBody });
    if (trigger.secretEnv !== undefined) {
      const secret = this.deps.env[trigger.secretEnv];
      // Checked at start-up; an unset secret must never verify anything.
      if (!secret) throw new TriggerHttpError('G022');
      const check = verifySignature(
        one(headers[SIGNATURE_HEADER]),
        secret,
        raw,
        Math.floor(now() / 1000),
        trigger.toleranceS,
      );
      if (!check.ok)
        throw check.code === 'G012'
          ? new TriggerHttpError('G012', { age: check.age, window: trigger.toleranceS })
          : new TriggerHttpError(check.code);
    }
    const given = one(headers[DELIVERY_HEADER]);
    if (given !== undefined && !/^[\x21-\x7e]{1,200}$/.test(given)) throw new TriggerHttpError('G019');
    const deliveryId = given ?? createHash('sha256').update(raw).digest('hex');
    let payload: unknown;
    try {
      payload = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
    } catch (err) {
      throw new TriggerHttpError('G013', { reason: (err as Error).message });
    }
    const problem = trigger.payload?.(payload)[0];
    if (problem)
      throw new TriggerHttpError('G014', { field: problem.pointer, message: problem.message }, problem.pointer);
    const inputs = await this.mapInputs(trigger, payload, headers, deliveryId);
    const checked = await this.deps.runner.check(trigger.recipe, inputs);
    if (!checked.ok) {
      const d = checked.diagnostics[0];
      if (checked.invalid === 'recipe')
        throw new TriggerHttpError('G024', { name: trigger.name, message: d ? `${d.code} ${d.message}` : 'invalid' });
      throw new TriggerHttpError('G015', { message: d ? `${d.code} ${d.message}` : 'invalid' }, d?.pointer);
    }
    if (trigger.runsOn === 'fleet') return this.enqueue(trigger, checked.runnable, deliveryId, now());
    // The one place a run is decided: the insert that wins the (trigger, delivery id) key starts it.
    const claim = this.deps.store.claim(trigger.name, deliveryId, newTriggerRunId(trigger.name), now());
    if (!claim.fresh) return { runId: claim.runId, deliveryId, duplicate: true };
    const running = this.deps.runner.run(checked.runnable, {
      runId: claim.runId,
      origin: { kind: 'trigger', trigger: trigger.name, delivery_id: deliveryId },
      dryRun: trigger.dryRun,
    });
    this.inFlight.set(claim.runId, running);
    void running
      .then((report) => this.afterRun(trigger, report))
      .catch((err: unknown) => this.deps.log?.(`${claim.runId}: ${(err as Error).message}`))
      .finally(() => this.inFlight.delete(claim.runId));
    return { runId: claim.runId, deliveryId, duplicate: false };
  }

  /**
   * A fleet run: the run id derived from the delivery id, claimed here first (concurrent copies of a delivery
   * to this server wait for none), then enqueued under that id, which the queue admits once across every
   * triggers server of the fleet. A claim whose enqueue failed is released, so the sender's retry enqueues.
   */
  private async enqueue(trigger: Trigger, runnable: ReadyRun, deliveryId: string, at: number): Promise<Accepted> {
    const fleet = this.deps.fleet;
    if (!fleet) throw new TriggerHttpError('G022');
    const claim = this.deps.store.claim(trigger.name, deliveryId, fleetRunIdOf(trigger.name, deliveryId), at);
    if (!claim.fresh) return { runId: claim.runId, deliveryId, duplicate: true };
    let added: boolean;
    try {
      added = await fleet.submit(runnable, {
        runId: claim.runId,
        origin: { kind: 'trigger', trigger: trigger.name, delivery_id: deliveryId },
        dryRun: trigger.dryRun,
        ...(trigger.callback
          ? {
              callback: {
                url: trigger.callback.url,
                attempts: trigger.callback.attempts,
                ...withSecretEnv(trigger.callback.secretEnv ?? trigger.secretEnv),
              },
            }
          : {}),
      });
    } catch (err) {
      this.deps.store.release(trigger.name, deliveryId);
      const message = err instanceof Error ? err.message : String(err);
      this.deps.log?.(`${claim.runId}: not enqueued: ${message}`);
      throw new TriggerHttpError('G042', { reason: message.split('\n')[0] });
    }
    return { runId: claim.runId, deliveryId, duplicate: !added };
  }

  /** How the run ended, waiting at most `ms`; undefined while it is still queued or running. */
  async result(trigger: Trigger, runId: string, ms: number): Promise<RunEnd | undefined> {
    if (trigger.runsOn === 'fleet') {
      try {
        return await this.deps.fleet?.result(runId, ms);
      } catch (err) {
        // F007: a concurrent copy of the delivery has claimed the run and not yet enqueued it.
        if (!(err instanceof RecipeError && err.code === 'F007'))
          this.deps.log?.(`${runId}: ${(err as Error).message}`);
        return undefined;
      }
    }
    const report = await this.localResult(runId, ms);
    return report ? { status: report.status === 'ok' ? 'succeeded' : report.status, report } : undefined;
  }

  /** A local run's report once it has ended, waiting at most `ms`; undefined while it is still running. */
  private async localResult(runId: string, ms: number): Promise<RunReport | undefined> {
    const running = this.inFlight.get(runId);
    if (running && ms > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
      const report = await Promise.race([running.catch(() => undefined), timeout]);
      clearTimeout(timer);
      if (report) return report;
    }
    if (this.inFlight.has(runId)) return undefined;
    const record = await this.deps.runner.journal.getRun(runId);
    return record?.report ? (JSON.parse(record.report) as RunReport) : undefined;
  }

  /** Waits for every run and callback this process started (a graceful stop). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
    await Promise.allSettled([...this.callbacks]);
  }

  private async mapInputs(
    trigger: Trigger,
    payload: unknown,
    headers: Record<string, string | string[] | undefined>,
    deliveryId: string,
  ): Promise<Record<string, unknown>> {
    const visible: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (!HIDDEN_HEADERS.has(k) && v !== undefined) visible[k] = String(v);
    const bindings = { payload, headers: visible, trigger: { name: trigger.name, delivery_id: deliveryId } };
    const inputs: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(trigger.inputs)) {
      try {
        const v = await evalValue(value, bindings);
        if (v !== undefined) inputs[name] = v;
      } catch (err) {
        throw new TriggerHttpError('G015', { message: `inputs.${name}: ${(err as Error).message}` }, `/inputs/${name}`);
      }
    }
    return inputs;
  }

  private afterRun(trigger: Trigger, report: RunReport): void {
    const cb = trigger.callback;
    if (!cb) return;
    const secretEnv = cb.secretEnv ?? trigger.secretEnv;
    const secret = secretEnv !== undefined ? this.deps.env[secretEnv] : undefined;
    const store = this.deps.store;
    const sending = sendCallback(
      { url: cb.url, attempts: cb.attempts, ...(secret ? { secret } : {}) },
      report.run_id,
      report,
      {
        ...(this.deps.sleep ? { sleep: this.deps.sleep } : {}),
        onAttempt: (o) =>
          store.noteCallback({
            run_id: report.run_id,
            delivery_id: o.deliveryId,
            url: cb.url,
            state: o.delivered ? 'delivered' : o.final ? 'failed' : 'sending',
            attempts: o.attempts,
            last_status: o.lastStatus,
            last_error: o.lastError,
            updated_at: Date.now(),
          }),
      },
    );
    this.callbacks.add(sending);
    void sending.then((o) => {
      this.callbacks.delete(sending);
      if (!o.delivered) this.deps.log?.(`${report.run_id}: result callback to ${cb.url} failed: ${o.lastError ?? ''}`);
    });
  }
}

function withSecretEnv(name: string | undefined): { secret_env?: string } {
  return name !== undefined ? { secret_env: name } : {};
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** A run id that says where it came from in `recipe runs`: the trigger's name and 12 random hex digits. */
function newTriggerRunId(name: string): string {
  return `${name.slice(0, 40)}-${randomBytes(6).toString('hex')}`;
}
