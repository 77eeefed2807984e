import type { CancelRequest } from '../../journal/index.js';
import type { FleetView, ScheduleView } from '../api-types.js';

/** What a redrive asks of the run beside going on: the flags of `recipe resume` a console offers. */
export interface RedriveOptions {
  readonly allow_changed: boolean;
  readonly retry_failed_items: boolean;
}

/**
 * What the console can do, behind its POST endpoints: the same functions `recipe cancel`, `recipe resume
 * --redis` and `recipe schedule pause|resume` call, on the journal or the fleet the console reads. Errors are
 * the functions' own RecipeErrors (J020, F022, F005, ...); routes/actions.ts maps them to K codes.
 */
export interface ConsoleActions {
  /** Shown on the pages: which journal or fleet the actions act on. */
  readonly label: string;
  /** Why a cancel is not offered here (no journal to act on), or null. */
  readonly cancelUnavailable: string | null;
  /** Why a redrive is not offered here (a local journal: `recipe resume` on that machine), or null. */
  readonly redriveUnavailable: string | null;
  /** Why schedules are not offered here (no fleet, or a fleet on PostgreSQL), or null. */
  readonly schedulesUnavailable: string | null;
  /** Why a recipe page offers no "Submit to the fleet" (no fleet), or null. */
  readonly submitUnavailable: string | null;
  cancel(runId: string, reason: string | null): Promise<CancelRequest>;
  redrive(runId: string, options: RedriveOptions): Promise<void>;
  listSchedules(): Promise<ScheduleView[]>;
  /** The fleet page's read (`recipe fleet status`); absent when the console reads no fleet. */
  fleetStatus?(): Promise<FleetView>;
  pauseSchedule(name: string): Promise<void>;
  resumeSchedule(name: string): Promise<void>;
  /** `recipe submit FILE` with these inputs: the recipe and inputs checked as submit checks them, then queued. */
  submit(file: string, inputs: Readonly<Record<string, unknown>>): Promise<SubmitOutcome>;
  close(): Promise<void>;
}

/**
 * A submit the fleet took (the run id it will run under, the recipe's path under the recipes folder), or why
 * not: each problem of the recipe or its inputs as `file:line:col: CODE message`.
 */
export type SubmitOutcome =
  { readonly run_id: string; readonly recipe: string } | { readonly problems: readonly string[] };
