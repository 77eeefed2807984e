import { createHash } from 'node:crypto';
import type { RunReport } from '../run/index.js';
import type { ReadyRun } from './local-runner.js';

/** How a run ended, as a delivery's answer says it: its report, or why its job failed before the run began. */
export type RunEnd =
  | { readonly status: string; readonly report: RunReport }
  | { readonly status: 'failed'; readonly error: { readonly code: string; readonly message: string } };

/**
 * A run's result callback as a fleet job carries it (`submit --callback`, `schedule add --callback`, a fleet
 * trigger's `callback:`): the URL and the NAME of the variable holding the signing secret, which each worker
 * reads from its own environment (a job never holds a secret value).
 */
export interface QueuedCallback {
  readonly url: string;
  /** Unset: the report is posted unsigned. Set but missing on the worker: nothing is posted (G041). */
  readonly secret_env?: string;
  /** Attempts in all (default 5). */
  readonly attempts?: number;
}

/** What a fleet run is enqueued with, beside the checked recipe. */
export interface FleetSubmit {
  readonly runId: string;
  readonly origin: Readonly<Record<string, unknown>>;
  readonly dryRun: boolean;
  readonly callback?: QueuedCallback;
}

/**
 * Where `runs_on: fleet` deliveries go: the fleet's queue (src/cli/triggers-fleet.ts wires it, so that this
 * folder does not import the fleet, which imports this folder's callback sender).
 */
export interface FleetRuns {
  /** Enqueues the run under `runId`: false when that run was already enqueued (nothing is added). */
  submit(checked: ReadyRun, o: FleetSubmit): Promise<boolean>;
  /** How the run ended, waiting at most `ms` (one look when 0); undefined while it is queued or running. */
  result(runId: string, ms: number): Promise<RunEnd | undefined>;
  close(): Promise<void>;
}

/**
 * The run id of a delivery on the fleet: the trigger's name and a hash of the delivery id, the same on every
 * redelivery and on every triggers server of the fleet, so the queue's job id (run-<run id>) admits one run.
 */
export function fleetRunIdOf(trigger: string, deliveryId: string): string {
  return `${trigger}-${createHash('sha256').update(deliveryId).digest('hex').slice(0, 16)}`;
}
