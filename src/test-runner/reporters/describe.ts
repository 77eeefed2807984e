import { formatFileLineCol } from '../../errors/index.js';
import type { Failure } from '../results.js';

/** A value in one line, cut to a readable length. */
export function show(value: unknown, max = 300): string {
  const text = value === undefined ? 'nothing (missing)' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `file:line:col` of where a failure's expectation was written. */
export function where(f: Failure): string {
  return formatFileLineCol(f.at);
}

/** The lines that explain a failure: what, where, then the message and/or expected against actual. */
export function failureLines(f: Failure): string[] {
  const lines = [`${f.what} at ${where(f)}`];
  if (f.message !== undefined) lines.push(`  ${f.message}`);
  if (f.expected !== undefined || f.actual !== undefined) {
    if (Array.isArray(f.actual) && f.expected === undefined) {
      lines.push('  actual:');
      for (const item of f.actual) lines.push(`    ${show(item)}`);
    } else if (isContainer(f.expected) && isContainer(f.actual)) {
      lines.push('  - expected  + actual');
      for (const line of diffLines(pretty(f.expected), pretty(f.actual))) lines.push(`  ${line}`);
    } else {
      lines.push(`  - expected: ${show(f.expected)}`);
      lines.push(`  + actual:   ${show(f.actual)}`);
    }
  }
  return lines;
}

function isContainer(v: unknown): boolean {
  return v !== null && typeof v === 'object';
}

/** Pretty JSON lines, cut to a readable length. */
function pretty(v: unknown): string[] {
  const lines = JSON.stringify(v, null, 2).split('\n');
  return lines.length > MAX_DIFF_LINES ? [...lines.slice(0, MAX_DIFF_LINES), '…'] : lines;
}

const MAX_DIFF_LINES = 60;

/** A line diff (longest common subsequence): `  ` both, `- ` expected only, `+ ` actual only. */
export function diffLines(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] =
        a[i] === b[j]
          ? ((lcs[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(`  ${a[i++]}`);
      j++;
    } else if (i < n && (j >= m || ((lcs[i + 1] as number[])[j] as number) >= ((lcs[i] as number[])[j + 1] as number)))
      out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out;
}

/** One line for a failure (JUnit message, annotation). */
export function failureSummary(f: Failure): string {
  if (f.message !== undefined && f.expected === undefined) return `${f.what}: ${f.message}`;
  const detail = `expected ${show(f.expected, 120)}, got ${show(f.actual, 120)}`;
  return `${f.what}: ${f.message !== undefined ? `${f.message}; ` : ''}${detail}`;
}
