import { formatDiagnostic } from '../../source/index.js';
import type { RecipeCoverage } from '../coverage.js';
import type { CaseResult, TestRunResult } from '../results.js';
import { summarize } from '../results.js';
import { failureLines } from './describe.js';

/** Colours for a terminal; identity functions otherwise. */
export interface Paint {
  readonly green: (s: string) => string;
  readonly red: (s: string) => string;
  readonly dim: (s: string) => string;
}

export const NO_PAINT: Paint = { green: (s) => s, red: (s) => s, dim: (s) => s };

/** The human report of one file's cases: ✓/✗/○ per case, and under each failure where and what. */
export function formatFileResults(results: readonly CaseResult[], paint: Paint = NO_PAINT): string {
  if (results.length === 0) return '';
  const lines = [results[0]?.file ?? ''];
  for (const r of results) {
    const ms = paint.dim(`(${r.durationMs} ms)`);
    if (r.status === 'passed') lines.push(`  ${paint.green('✓')} ${r.name} ${ms}`);
    else if (r.status === 'updated') lines.push(`  ${paint.green('✓')} ${r.name} ${paint.dim('(snapshot updated)')}`);
    else if (r.status === 'skipped') lines.push(`  ${paint.dim(`○ ${r.name} (skipped: ${r.skipReason ?? ''})`)}`);
    else {
      lines.push(`  ${paint.red('✗')} ${r.name} ${ms}`);
      for (const f of r.failures) for (const line of failureLines(f)) lines.push(`      ${line}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The closing lines: problems of invalid files, coverage if asked, then `N passed, N failed`. */
export function formatSummary(run: TestRunResult, paint: Paint = NO_PAINT): string {
  const out: string[] = [];
  if (run.coverage) out.push(formatCoverage(run.coverage));
  for (const file of run.updated) out.push(`updated ${file}`);
  const s = summarize(run.results);
  const parts = [`${s.passed} passed`, `${s.failed} failed`];
  if (s.skipped > 0) parts.push(`${s.skipped} skipped`);
  if (s.updated > 0) parts.push(`${s.updated} updated`);
  out.push('');
  out.push(parts.join(', '));
  const invalid = new Set(run.diagnostics.map((d) => d.file)).size;
  out.push(
    paint.dim(
      `${run.files} test file${run.files === 1 ? '' : 's'}${invalid ? `, ${invalid} invalid` : ''}, ${(run.durationMs / 1000).toFixed(2)} s`,
    ),
  );
  return `${out.join('\n')}\n`;
}

/** Diagnostics of invalid test files, one `FILE:LINE:COL: CODE message` per line. */
export function formatDiagnostics(run: TestRunResult): string {
  return run.diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join('');
}

/** Step coverage per recipe: the percentage, then the steps that did not run and the on_error branches. */
export function formatCoverage(coverage: readonly RecipeCoverage[]): string {
  const lines = ['step coverage:'];
  for (const r of coverage) {
    lines.push(`  ${r.recipe}  ${r.ran}/${r.total} steps ran (${r.percent}%)`);
    for (const s of r.steps) {
      const notes: string[] = [];
      if (s.state === 'skipped') notes.push('only skipped by `when`');
      if (s.state === 'not_reached') notes.push('never reached');
      if (s.continue_taken !== undefined)
        notes.push(s.continue_taken ? 'on_error: continue taken' : 'on_error: continue never taken');
      if (notes.length) lines.push(`    line ${s.line}  ${s.id} (${s.kind}): ${notes.join(', ')}`);
    }
  }
  return lines.join('\n');
}
