import type { FleetStore } from '../fleet/fleet-store.js';
import { openFleet, runJobData, submitRun, waitForRun, type FleetClient } from '../fleet/queue.js';
import type { RunReport } from '../run/index.js';
import type { FleetRuns, FleetSubmit, RunEnd } from '../triggers/fleet-runs.js';
import type { ReadyRun } from '../triggers/local-runner.js';

/** Where a trigger's fleet runs go: the store, the queue, and the recipes directory the workers share. */
export interface FleetRunnerOptions {
  readonly store: FleetStore;
  readonly queue: string;
  /** The workers' --recipes: each job names its recipe relative to it (F002 for a recipe outside it). */
  readonly recipesDir: string;
}

/** `runs_on: fleet`: enqueues trigger runs for the fleet's workers (as `recipe submit` does), reads how they ended. */
export class FleetRunner implements FleetRuns {
  private constructor(
    private readonly fleet: FleetClient,
    private readonly recipesDir: string,
  ) {}

  /** Connects to the store (F001/F010 when it cannot be reached: the server does not start). */
  static async open(o: FleetRunnerOptions): Promise<FleetRunner> {
    return new FleetRunner(await openFleet(o.store, o.queue), o.recipesDir);
  }

  /** Enqueues the run under `runId`: false when that run was already enqueued (nothing is added). */
  async submit(checked: ReadyRun, o: FleetSubmit): Promise<boolean> {
    const data = await runJobData(checked.plan, this.recipesDir, {
      inputs: checked.inputs,
      runId: o.runId,
      ...(o.dryRun ? { dryRun: true } : {}),
    });
    return submitRun(this.fleet, {
      ...data,
      run_id: o.runId,
      origin: o.origin,
      ...(o.callback ? { callback: o.callback } : {}),
    });
  }

  /** How the run ended, waiting at most `ms` (one look when 0); undefined while it is queued or running. */
  async result(runId: string, ms: number): Promise<RunEnd | undefined> {
    const outcome = await waitForRun(this.fleet, runId, AbortSignal.timeout(Math.max(ms, 1)));
    if (!outcome) return undefined;
    if (outcome.kind === 'report') {
      const report = JSON.parse(outcome.record.report ?? '{}') as RunReport;
      return { status: report.status === 'ok' ? 'succeeded' : report.status, report };
    }
    const code = /^([A-Z]\d{3}) /.exec(outcome.reason)?.[1];
    return {
      status: 'failed',
      error: { code: code ?? 'F008', message: code ? outcome.reason.slice(code.length + 1) : outcome.reason },
    };
  }

  close(): Promise<void> {
    return this.fleet.close();
  }
}
