import type { TestRunResult } from '../results.js';
import { summarize } from '../results.js';

/**
 * The JSON report: totals, the problems of invalid files, every case (status, failures with file:line,
 * the run's status, error, requests, outputs and writes), and coverage when asked.
 */
export function formatJson(run: TestRunResult): string {
  const report = {
    summary: { ...summarize(run.results), files: run.files, duration_ms: run.durationMs },
    diagnostics: run.diagnostics,
    cases: run.results.map((r) => ({
      file: r.file,
      name: r.name,
      line: r.line,
      status: r.status,
      duration_ms: r.durationMs,
      ...(r.skipReason !== undefined ? { skip_reason: r.skipReason } : {}),
      failures: r.failures.map((f) => ({
        what: f.what,
        file: f.at.file,
        line: f.at.line,
        column: f.at.column,
        ...(f.message !== undefined ? { message: f.message } : {}),
        ...(f.expected !== undefined ? { expected: f.expected } : {}),
        ...(f.actual !== undefined ? { actual: f.actual } : {}),
      })),
      ...(r.run ? { run: r.run } : {}),
      ...(r.writes ? { writes: r.writes } : {}),
      // The run's log lines (secrets masked) help to read a failure; a passing case keeps the report short.
      ...(r.status === 'failed' && r.logs?.length ? { logs: r.logs } : {}),
    })),
    ...(run.coverage ? { coverage: run.coverage } : {}),
    ...(run.updated.length ? { updated: run.updated } : {}),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
