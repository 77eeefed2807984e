import type { Failure } from '../results.js';

/** A value in one line, cut to a readable length. */
export function show(value: unknown, max = 300): string {
  const text = value === undefined ? 'nothing (missing)' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `file:line:col` of where a failure's expectation was written. */
export function where(f: Failure): string {
  return `${f.at.file}:${f.at.line}:${f.at.column}`;
}

/** The lines that explain a failure: what, where, then the message and/or expected against actual. */
export function failureLines(f: Failure): string[] {
  const lines = [`${f.what} at ${where(f)}`];
  if (f.message !== undefined) lines.push(`  ${f.message}`);
  if (f.expected !== undefined || f.actual !== undefined) {
    if (Array.isArray(f.actual) && f.expected === undefined) {
      lines.push('  actual:');
      for (const item of f.actual) lines.push(`    ${show(item)}`);
    } else {
      lines.push(`  - expected: ${show(f.expected)}`);
      lines.push(`  + actual:   ${show(f.actual)}`);
    }
  }
  return lines;
}

/** One line for a failure (JUnit message, annotation). */
export function failureSummary(f: Failure): string {
  if (f.message !== undefined && f.expected === undefined) return `${f.what}: ${f.message}`;
  const detail = `expected ${show(f.expected, 120)}, got ${show(f.actual, 120)}`;
  return `${f.what}: ${f.message !== undefined ? `${f.message}; ` : ''}${detail}`;
}
