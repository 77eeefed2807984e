import type { Diagnostic, SourceLoc } from '../errors/index.js';
import type { RecipeCoverage, StepHits } from './coverage.js';
import type { WriteRecord } from './traffic.js';

/** One unmet expectation, at the line it was written. */
export interface Failure {
  /** What was checked, e.g. "expect.outputs.created" or "status". */
  readonly what: string;
  readonly at: SourceLoc;
  readonly message?: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/** The outcome of one case: plain data (it crosses from worker threads). */
export interface CaseResult {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly status: 'passed' | 'failed' | 'skipped' | 'updated';
  readonly durationMs: number;
  readonly failures: Failure[];
  readonly skipReason?: string;
  /** The run's status, error, request count and outputs (redacted), when it ran. */
  readonly run?: {
    readonly status: string;
    readonly error?: { code: string; message: string; file?: string; line?: number; column?: number };
    readonly requests: number;
    readonly outputs: Record<string, unknown>;
  };
  readonly writes?: WriteRecord[];
  readonly logs?: string[];
  readonly hits?: Record<string, StepHits>;
}

/** Everything a `recipe test` run found. */
export interface TestRunResult {
  readonly results: CaseResult[];
  /** Problems of invalid test files (they did not run). */
  readonly diagnostics: Diagnostic[];
  readonly files: number;
  readonly durationMs: number;
  readonly coverage?: RecipeCoverage[];
  /** Files rewritten by --update. */
  readonly updated: string[];
}

/** Totals over the results. */
export function summarize(results: readonly CaseResult[]): {
  passed: number;
  failed: number;
  skipped: number;
  updated: number;
} {
  const n = (s: CaseResult['status']) => results.filter((r) => r.status === s).length;
  return { passed: n('passed'), failed: n('failed'), skipped: n('skipped'), updated: n('updated') };
}
