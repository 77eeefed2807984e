import type { Command } from 'commander';

/** `recipe serve`: not built yet (placeholder so the program compiles while the command is written). */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('recipe serve: not implemented yet\n');
      process.exitCode = 3;
    });
}
