import type { Command } from 'commander';

/** `recipe run`: not built yet (placeholder so the program compiles while the command is written). */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('recipe run: not implemented yet\n');
      process.exitCode = 3;
    });
}
