import { writeFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { formatLocation, RecipeError } from '../errors/index.js';
import { ExitCode } from './exit-codes.js';
import { parseDurationFlag, RETRY_FOR_HELP } from './options.js';
import { formatDiagnostic } from '../source/index.js';

interface TestFlags {
  reporter: 'text' | 'junit' | 'json';
  output?: string;
  name?: string;
  update?: boolean;
  record?: boolean;
  coverage?: boolean;
  coverageOutput?: string;
  jobs?: number;
  strict?: boolean;
  allowNetwork?: boolean;
  retryFor?: number;
}

/** `recipe test [PATH...]`: runs *.test.yaml files against the embedded service; text, JUnit or JSON reports. */
export function registerTest(program: Command): void {
  program
    .command('test')
    .description('run recipe tests (*.test.yaml) against the embedded service, with fixtures, mocks and cassettes')
    .argument('[paths...]', 'test files, or folders to search for *.test.yaml (default: the current folder)')
    .addOption(new Option('--reporter <reporter>', 'report format').choices(['text', 'junit', 'json']).default('text'))
    .option('-o, --output <file>', 'write the junit or json report to FILE (the text report still goes to stdout)')
    .option('-t, --name <text>', 'run only the cases whose name contains TEXT (and the cases they run after)')
    .option('-u, --update', 'rewrite the expectations of snapshot cases (snapshot: true) from what they did')
    .option('--record', 'run cases that name a cassette against the live service (CONNECTOR_API_URL) and record it')
    .option('--coverage', 'report which steps of each recipe the cases ran, skipped or never reached')
    .option('--coverage-output <file>', 'also write the coverage as JSON to FILE')
    .option('--strict', 'warnings (W codes) of a tested recipe make its test file invalid, as `validate --strict`')
    .option('--allow-network', 'let http steps reach URLs that no mock answers (default: refused, T012)')
    .option('-j, --jobs <n>', 'run cases in N worker threads, each with its own embedded service', positiveInt)
    .option('--retry-for <duration>', RETRY_FOR_HELP, parseDurationFlag)
    .addHelpText(
      'after',
      `
Exit codes: 0 every case passed, 1 a case failed, 2 a test file is invalid (FILE:LINE:COL: CODE message).
With GITHUB_ACTIONS=true, failures are also printed as ::error annotations at the expectation's line.

Examples:
  recipe test                                   every *.test.yaml under the current folder
  recipe test recipes/ --reporter junit -o junit.xml
  recipe test recipes/stale-deals-follow-up.test.yaml -t "second run"
  recipe test --update                          refresh snapshot cases
  CONNECTOR_API_URL=https://... recipe test --record   record cassettes from a live service
  recipe test --allow-network                   let http steps without a mock reach the network

Reference: docs/testing.md`,
    )
    .action(async (paths: string[], flags: TestFlags) => {
      process.exitCode = await testCommand(paths, flags);
    });
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

async function testCommand(paths: string[], flags: TestFlags): Promise<number> {
  // Loaded here: the runner brings in the service, which other commands should not pay for.
  const lib = await import('../test-runner/index.js');
  const machineOnStdout = flags.reporter !== 'text' && flags.output === undefined;
  const human = (text: string): boolean => (machineOnStdout ? process.stderr : process.stdout).write(text);
  const tty = !machineOnStdout && process.stdout.isTTY === true && !process.env.NO_COLOR;
  const paint = tty
    ? {
        green: (s: string) => `\x1b[32m${s}\x1b[39m`,
        red: (s: string) => `\x1b[31m${s}\x1b[39m`,
        dim: (s: string) => `\x1b[2m${s}\x1b[22m`,
      }
    : lib.NO_PAINT;
  // Each case's run reads it (test-runner/run-case.ts), in this process and in the --jobs threads alike.
  if (flags.retryFor !== undefined) process.env.RECIPE_RETRY_FOR = `${flags.retryFor}ms`;
  let run;
  try {
    run = await lib.runTests({
      paths,
      ...(flags.name !== undefined ? { filter: flags.name } : {}),
      update: flags.update === true,
      record: flags.record === true,
      coverage: flags.coverage === true || flags.coverageOutput !== undefined,
      ...(flags.jobs !== undefined ? { jobs: flags.jobs } : {}),
      strict: flags.strict === true,
      allowNetwork: flags.allowNetwork === true,
      onWarning: (w) => process.stderr.write(`${formatDiagnostic(w)}\n`),
      onFile: (results) => human(lib.formatFileResults(results, paint)),
    });
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
    return ExitCode.invalid;
  }
  process.stderr.write(lib.formatDiagnostics(run));
  human(lib.formatSummary(run, paint));
  if (process.env.GITHUB_ACTIONS === 'true') human(lib.formatGithubAnnotations(run));
  if (flags.reporter !== 'text') {
    const report = flags.reporter === 'junit' ? lib.formatJunit(run) : lib.formatJson(run);
    if (flags.output !== undefined) writeFileSync(flags.output, report);
    else process.stdout.write(report);
  }
  if (flags.coverageOutput !== undefined && run.coverage)
    writeFileSync(flags.coverageOutput, `${JSON.stringify(run.coverage, null, 2)}\n`);
  if (run.diagnostics.length > 0) return ExitCode.invalid;
  return run.results.some((r) => r.status === 'failed') ? ExitCode.runFailed : ExitCode.ok;
}
