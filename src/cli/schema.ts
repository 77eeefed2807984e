import type { Command } from 'commander';

/** `recipe schema`: not built yet (placeholder so the program compiles while the command is written). */
export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('recipe schema: not implemented yet\n');
      process.exitCode = 3;
    });
}
