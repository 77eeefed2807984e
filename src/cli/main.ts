#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { Command, CommanderError } from 'commander';
import { ExitCode } from './exit-codes.js';
import { endQuietlyOnClosedPipes } from './pipes.js';
import { version } from './version.js';

/**
 * Each command's module, loaded only when needed: `run` pulls in the service and `validate` the YAML, schema
 * and JSONata libraries, and start-up time is paid on every invocation (`recipe --version` < 300 ms).
 */
const commands: Record<string, () => Promise<(program: Command) => void>> = {
  validate: async () => (await import('./validate.js')).registerValidate,
  schema: async () => (await import('./schema.js')).registerSchema,
  run: async () => (await import('./run/run.js')).registerRun,
  serve: async () => (await import('./serve.js')).registerServe,
  resume: async () => (await import('./run/resume.js')).registerResume,
  runs: async () => (await import('./run/runs.js')).registerRuns,
  cancel: async () => (await import('./run/cancel.js')).registerCancel,
  init: async () => (await import('./init.js')).registerInit,
  completion: async () => (await import('./completion.js')).registerCompletion,
  __complete: async () => (await import('./completion-values.js')).registerCompleteValues,
  docs: async () => (await import('./docs.js')).registerDocs,
  console: async () => (await import('./console.js')).registerConsole,
  eval: async () => (await import('./eval.js')).registerEval,
  test: async () => (await import('./test.js')).registerTest,
  worker: async () => (await import('./fleet/worker.js')).registerWorker,
  submit: async () => (await import('./fleet/submit.js')).registerSubmit,
  schedule: async () => (await import('./fleet/schedule.js')).registerSchedule,
  triggers: async () => (await import('./triggers.js')).registerTriggers,
  mcp: async () => (await import('./mcp.js')).registerMcp,
  deps: async () => (await import('./deps.js')).registerDeps,
  fleet: async () => (await import('./fleet/fleet-status.js')).registerFleet,
};

endQuietlyOnClosedPipes();

/**
 * Commands that end when their work ends. undici parses HTTP with llhttp compiled to WebAssembly, and V8
 * recompiles its hot parser function with TurboFan on a background thread (~250 ms of CPU); a process that
 * makes one request then waits for that compile before it can exit: 140-180 ms of every short `recipe run`
 * (bench/README.md, issue 29). Baseline (Liftoff) code is enough for a CLI's parsing (streaming 100,000
 * contacts measured no slower); long-lived commands keep the optimizing tier.
 */
const LONG_LIVED = new Set(['serve', 'worker', 'console', 'triggers', 'mcp']);
if (!LONG_LIVED.has(process.argv[2] ?? '')) setFlagsFromString('--liftoff-only');

/** The `recipe` program: parses arguments and hands over to the library; exit codes live in exit-codes.ts. */
const program = new Command('recipe')
  .description('Declarative automations for the Connector Data Access API, and an embedded copy of that API.')
  .version(version, '-V, --version')
  .showHelpAfterError('(run with --help for usage)')
  // Usage errors (unknown option or command, a bad flag value) throw instead of exiting 1; caught below.
  .exitOverride()
  .addHelpText(
    'after',
    `
Examples:
  recipe validate recipes/                       check every recipe under a folder
  recipe run recipes/pipeline-report.yaml        run against the embedded service (no account needed)
  CONNECTOR_API_URL=https://... recipe run r.yaml   run against a hosted service
  recipe serve --seed demo                       start the embedded service with demo data
  recipe test recipes/                           run the recipes' tests (*.test.yaml) against fixtures
  recipe init my-recipes                         start a recipes repository (example, fixtures, CI workflow)
  recipe eval '$sum([1, 2, 3])'                  evaluate one expression as a recipe step would
  recipe cancel RUN --reason "..."               stop a running run (resume it later)

Exit codes: 0 ok, 1 run failed, 2 recipe, inputs or command line invalid, 3 configuration or authentication, 130 interrupted.`,
  );

// Only the command named on the command line; every command for help, `help CMD`, unknown words (so the
// usage lists them and typos get suggestions) and `completion` (which describes them all); none for --version.
const first = process.argv[2];
const names =
  first === '-V' || first === '--version'
    ? []
    : first !== undefined && first !== 'completion' && Object.hasOwn(commands, first)
      ? [first]
      : Object.keys(commands);
for (const name of names) (await commands[name]!())(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (!(err instanceof CommanderError)) throw err;
  // Help and --version end with 0; every usage error (commander prints it) is exit 2, like an invalid recipe.
  process.exitCode = err.exitCode === 0 ? ExitCode.ok : ExitCode.invalid;
}
