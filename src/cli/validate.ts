import { Option, type Command } from 'commander';
import { validateFiles } from '../compile/index.js';
import { githubAnnotation } from '../errors/github-annotation.js';
import { formatDiagnostic } from '../source/index.js';
import { ExitCode } from './exit-codes.js';

/** `recipe validate FILE|DIR...`: every problem in every recipe, as FILE:LINE:COL: CODE message or JSON. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check recipe files without running them: YAML, structure, expressions, references and calls')
    .argument(
      '<paths...>',
      'recipe files, or folders to search for *.yaml and *.yml (recursively; fixture and test files, YAML that is not a recipe and what .recipeignore lists are skipped)',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'))
    .addHelpText(
      'after',
      `
Output (text): one line per problem, FILE:LINE:COL: CODE message, then a summary line on stderr.
Output (json): [{"file", "valid", "diagnostics": [{"code", "message", "file", "line", "column", "pointer", "severity"}]}]
Output (github): one ::error file=…,line=…,col=…,title=CODE::message annotation per problem (GitHub Actions).

Exit codes: 0 every file is valid, 2 at least one file is invalid or unreadable.

Examples:
  recipe validate recipes/                       every recipe under a folder
  recipe validate a.yaml b.yaml                  two files
  recipe validate --format json recipes/ | jq '.[] | select(.valid | not)'`,
    )
    .action(async (paths: string[], options: { format: 'text' | 'json' | 'github' }) => {
      let skipped = 0;
      const results = await validateFiles(paths, { onSkip: () => skipped++ });
      const problems = results.reduce((n, r) => n + r.diagnostics.length, 0);
      if (options.format === 'json') {
        process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      } else if (options.format === 'github') {
        for (const d of results.flatMap((r) => r.diagnostics))
          process.stdout.write(
            `${githubAnnotation({ file: d.file, line: d.line, column: d.column, title: d.code, message: d.message })}\n`,
          );
      } else {
        const lines = results.flatMap((r) => r.diagnostics.map((d) => formatDiagnostic(d)));
        if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
        const files = results.length;
        process.stderr.write(
          `${files} file${files === 1 ? '' : 's'}, ${problems} problem${problems === 1 ? '' : 's'}${skipped ? `; ${skipped} skipped (not recipes)` : ''}\n`,
        );
      }
      process.exitCode = results.every((r) => r.valid) ? ExitCode.ok : ExitCode.invalid;
    });
}
