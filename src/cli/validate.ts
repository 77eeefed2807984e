import { Option, type Command } from 'commander';
import { embeddedCatalog, type ConnectorCatalog } from '../catalog/index.js';
// config.js and routes.js, not the client's index: validate must not load the HTTP client (undici) unless it
// fetches a catalog.
import { ENV, readConnectionConfig } from '../client/config.js';
import { openapiPath } from '../client/routes.js';
import { validateFiles } from '../compile/index.js';
import { githubAnnotation } from '../errors/github-annotation.js';
import { displayPath, formatLocation, RecipeError } from '../errors/index.js';
import { formatDiagnostic } from '../source/index.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';

interface ValidateFlags {
  format: 'text' | 'json' | 'github';
  strict?: boolean;
  against?: string;
  online?: boolean;
}

/** `recipe validate FILE|DIR...`: every problem in every recipe, as FILE:LINE:COL: CODE message or JSON. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(
      'check recipe files without running them: YAML, structure, expressions, references, calls and connector calls',
    )
    .argument(
      '<paths...>',
      'recipe files, or folders to search for *.yaml and *.yml (recursively; fixture and test files, YAML that is not a recipe and what .recipeignore lists are skipped)',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'))
    .option('--strict', 'warnings (W codes) fail the validation too')
    .option('--against <url>', "check connector calls against this service's connector catalog")
    .option('--online', `check connector calls against the catalog of the service at ${ENV.baseUrl}`)
    .addHelpText(
      'after',
      `
Connector calls (execute, paginate, download) are checked against the embedded service's connector types
(schemas/connectors/), or with --against URL / --online against the catalog the service publishes in
${openapiPath()} (cached per service in .recipe/catalogs/, used when the service cannot be reached).

Output (text): one line per problem, FILE:LINE:COL: CODE message, then a summary line on stderr.
Codes starting with W are warnings: printed, but they fail the validation only with --strict.
Output (json): [{"file", "valid", "diagnostics": [{"code", "message", "file", "line", "column", "pointer", "severity"}]}]
Output (github): one ::error (or ::warning) file=…,line=…,col=…,title=CODE::message annotation per problem (GitHub Actions).

Exit codes: 0 every file is valid, 2 at least one file is invalid or unreadable,
3 the service named by --against/--online cannot be reached and no cached catalog exists.

Examples:
  recipe validate recipes/                       every recipe under a folder
  recipe validate a.yaml b.yaml                  two files
  recipe validate --strict recipes/              warnings fail too (for CI)
  recipe validate --against https://api.example.com recipes/
  recipe validate --format json recipes/ | jq '.[] | select(.valid | not)'`,
    )
    .action(async (paths: string[], flags: ValidateFlags) => {
      let catalog: ConnectorCatalog;
      try {
        catalog = await catalogFor(flags);
      } catch (err) {
        const e = err instanceof RecipeError ? err : new RecipeError('C001', { reason: String(err) });
        process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
        process.exitCode = exitCodeFor(e.class);
        return;
      }
      let skipped = 0;
      // Diagnostics name files relative to the working directory, however they were given.
      const results = await validateFiles(
        paths.map((p) => displayPath(p)),
        { catalog, strict: flags.strict === true, onSkip: () => skipped++ },
      );
      const all = results.flatMap((r) => r.diagnostics);
      const warnings = all.filter((d) => d.severity === 'warning').length;
      const problems = all.length - warnings;
      if (flags.format === 'json') {
        process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      } else if (flags.format === 'github') {
        for (const d of all)
          process.stdout.write(
            `${githubAnnotation({ file: d.file, line: d.line, column: d.column, title: d.code, message: d.message }, d.severity)}\n`,
          );
      } else {
        const lines = all.map((d) => formatDiagnostic(d));
        if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
        const files = results.length;
        process.stderr.write(
          `${files} file${files === 1 ? '' : 's'}, ${problems} problem${problems === 1 ? '' : 's'}` +
            `${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}` +
            `${skipped ? `; ${skipped} skipped (not recipes)` : ''}\n`,
        );
      }
      process.exitCode = results.every((r) => r.valid) ? ExitCode.ok : ExitCode.invalid;
    });
}

/** The catalog to check connector calls against: the embedded types, or the one a service publishes. */
async function catalogFor(flags: ValidateFlags): Promise<ConnectorCatalog> {
  let url = flags.against;
  if (url === undefined && flags.online) {
    url = readConnectionConfig({}, process.env).baseUrl;
    if (url === undefined) throw new RecipeError('C001', { reason: `--online needs ${ENV.baseUrl}` });
  }
  if (url === undefined) return embeddedCatalog();
  readConnectionConfig({ baseUrl: url }, {}); // the same URL checks as a run (C001 on a bad one)
  const { serviceCatalog } = await import('../catalog/service-catalog.js');
  return serviceCatalog(url);
}
