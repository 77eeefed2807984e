import { githubAnnotation } from '../../errors/github-annotation.js';
import type { TestRunResult } from '../results.js';
import { failureSummary } from './describe.js';

/** GitHub Actions annotations: one per failed expectation, at its line, and one per problem of an invalid file. */
export function formatGithubAnnotations(run: TestRunResult): string {
  const lines: string[] = [];
  for (const d of run.diagnostics)
    lines.push(githubAnnotation({ file: d.file, line: d.line, column: d.column, title: d.code, message: d.message }));
  for (const r of run.results)
    for (const f of r.failures)
      lines.push(
        githubAnnotation({
          file: f.at.file,
          line: f.at.line,
          column: f.at.column,
          title: `recipe test: ${r.name}`,
          message: failureSummary(f),
        }),
      );
  return lines.map((l) => `${l}\n`).join('');
}
