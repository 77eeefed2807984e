import type { Command } from 'commander';

/** `recipe validate`: not built yet (placeholder so the program compiles while the command is written). */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('recipe validate: not implemented yet\n');
      process.exitCode = 3;
    });
}
