import { formatDiagnostic } from '../../source/index.js';
import type { CaseResult, TestRunResult } from '../results.js';
import { failureLines, failureSummary } from './describe.js';

/**
 * JUnit XML (the Surefire/Ant shape GitHub Actions reporters, GitLab and Jenkins read): one <testsuite> per
 * test file, one <testcase> per case with <failure> or <skipped>; an invalid test file is a suite with one
 * <error> per problem.
 */
export function formatJunit(run: TestRunResult): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const r of run.results) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  let errors = 0;
  for (const [file, results] of byFile) {
    const f = results.filter((r) => r.status === 'failed').length;
    const s = results.filter((r) => r.status === 'skipped').length;
    const time = seconds(results.reduce((n, r) => n + r.durationMs, 0));
    tests += results.length;
    failures += f;
    skipped += s;
    const cases = results.map((r) => {
      const open = `    <testcase name="${xml(r.name)}" classname="${xml(file)}" file="${xml(file)}" line="${r.line}" time="${seconds(r.durationMs)}"`;
      if (r.status === 'skipped')
        return `${open}>\n      <skipped message="${xml(r.skipReason ?? '')}"/>\n    </testcase>`;
      if (r.status !== 'failed') return `${open}/>`;
      const body = r.failures.map((x) => failureLines(x).join('\n')).join('\n\n');
      const first = r.failures[0];
      const message = first ? failureSummary(first) : 'failed';
      return `${open}>\n      <failure message="${xml(message)}" type="${xml(first?.what ?? 'failure')}">${xml(body)}</failure>\n    </testcase>`;
    });
    suites.push(
      `  <testsuite name="${xml(file)}" tests="${results.length}" failures="${f}" errors="0" skipped="${s}" time="${time}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  const invalid = new Map<string, string[]>();
  for (const d of run.diagnostics) invalid.set(d.file, [...(invalid.get(d.file) ?? []), formatDiagnostic(d)]);
  for (const [file, problems] of invalid) {
    errors += 1;
    tests += 1;
    suites.push(
      `  <testsuite name="${xml(file)}" tests="1" failures="0" errors="1" skipped="0" time="0">\n    <testcase name="test file is valid" classname="${xml(file)}" file="${xml(file)}" time="0">\n      <error message="${xml(problems[0] ?? '')}" type="invalid">${xml(problems.join('\n'))}</error>\n    </testcase>\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="recipe test" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(run.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Escapes text for XML attributes and content; drops characters XML 1.0 cannot hold. */
function xml(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
