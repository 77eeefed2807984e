import type { Command } from 'commander';
import { recipeSchemaText } from '../schema/index.js';

/** `recipe schema`: prints the recipe JSON Schema (draft 2020-12), for editors and other tools. */
export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of recipe files (draft 2020-12)')
    .addHelpText(
      'after',
      `
Examples:
  recipe schema > recipe.schema.json
  # then, first line of a recipe, for the YAML language server (VS Code, Neovim, ...):
  # yaml-language-server: $schema=./recipe.schema.json`,
    )
    .action(() => {
      process.stdout.write(recipeSchemaText().endsWith('\n') ? recipeSchemaText() : `${recipeSchemaText()}\n`);
    });
}
