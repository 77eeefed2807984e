import type { StartRunOptions } from '../../run/index.js';
import type { ProgressView } from './run-output.js';

// The shapes `recipe run`, `recipe resume` and the journal's part of them share (cli/run/run.ts,
// cli/run/resume.ts, cli/run/run-journal.ts), here so that none of them imports another for its types.

/** The journal flags `recipe run`, `recipe resume` and `recipe runs` share. */
export interface JournalFlags {
  /** A path (--journal PATH), false (--no-journal), or undefined (RECIPE_JOURNAL, else the default). */
  journal?: string | false;
  runId?: string;
}

/** The flags of `recipe run` (`recipe resume` takes the connection and output ones). */
export interface RunFlags extends JournalFlags {
  input?: string[];
  inputs?: string;
  baseUrl?: string;
  /** --organization: the connector API's x-organization-id (else CONNECTOR_ORGANIZATION_ID). */
  organization?: string;
  connector?: string;
  dryRun?: boolean;
  /** --strict: warnings stop the run before anything is sent. */
  strict?: boolean;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  fixtures?: string;
  db?: string;
  now?: number;
  /** A file name, or false for --no-env-file. */
  envFile?: string | false;
  /** --callback URL: POST the report there when the run ends (docs/triggers.md). */
  callback?: string;
  /** --retry-for: the run's default max_duration of transient-failure retries, in ms. */
  retryFor?: number;
  /** --retain: runs that ended longer ago than this (ms) are pruned from the journal at the start. */
  retain?: number;
  /** --drop-read-answers: a run that succeeded keeps no read answers in the journal. */
  dropReadAnswers?: boolean;
}

/** The progress view and the error printer of one command (run or resume). */
export interface CommandOutput {
  readonly view: ProgressView;
  /** Prints an error that stopped the command before or instead of a report; returns its exit code. */
  fail(err: unknown): number;
}

/** What the command decides about a run; the rest (client, journal, clock, logs) connectAndRun adds. */
export type RunChoice = Pick<StartRunOptions, 'inputs' | 'dryRun' | 'connectorId' | 'journal' | 'runId' | 'prepare'>;
