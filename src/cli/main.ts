#!/usr/bin/env node
import { Command } from 'commander';
import { registerRun } from './run.js';
import { registerSchema } from './schema.js';
import { registerServe } from './serve.js';
import { registerValidate } from './validate.js';
import { version } from './version.js';

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

registerValidate(program);
registerSchema(program);
registerRun(program);
registerServe(program);

await program.parseAsync(process.argv);
