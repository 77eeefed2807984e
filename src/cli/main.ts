#!/usr/bin/env node
import { Command } from 'commander';
import { version } from './version.js';

/**
 * Each command's module, loaded only when needed: `run` pulls in the service and `validate` the YAML, schema
 * and JSONata libraries, and start-up time is paid on every invocation (`recipe --version` < 300 ms).
 */
const commands: Record<string, () => Promise<(program: Command) => void>> = {
  validate: async () => (await import('./validate.js')).registerValidate,
  schema: async () => (await import('./schema.js')).registerSchema,
  run: async () => (await import('./run.js')).registerRun,
  serve: async () => (await import('./serve.js')).registerServe,
  console: async () => (await import('./console.js')).registerConsole,
};

/** The `recipe` program: parses arguments and hands over to the library; exit codes live in exit-codes.ts. */
const program = new Command('recipe')
  .description('Declarative automations for the Connector Data Access API, and an embedded copy of that API.')
  .version(version, '-V, --version')
  .showHelpAfterError('(run with --help for usage)')
  .addHelpText(
    'after',
    `
Examples:
  recipe validate recipes/                       check every recipe under a folder
  recipe run recipes/pipeline-report.yaml        run against the embedded service (no account needed)
  CONNECTOR_API_URL=https://... recipe run r.yaml   run against a hosted service
  recipe serve --seed demo                       start the embedded service with demo data

Exit codes: 0 ok, 1 run failed, 2 recipe or inputs invalid, 3 configuration or authentication, 130 interrupted.`,
  );

// Only the command named on the command line; every command for help, `help CMD` and unknown words (so the
// usage lists them and typos get suggestions); none for --version.
const first = process.argv[2];
const names =
  first === '-V' || first === '--version'
    ? []
    : first !== undefined && Object.hasOwn(commands, first)
      ? [first]
      : Object.keys(commands);
for (const name of names) (await commands[name]!())(program);

await program.parseAsync(process.argv);
