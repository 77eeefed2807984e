import type { Command } from 'commander';
import { editorSchemaText } from '../catalog/index.js';
import { recipeSchemaText } from '../schema/index.js';

/** `recipe schema`: prints the recipe JSON Schema (draft 2020-12), for editors and other tools. */
export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of recipe files (draft 2020-12)')
    .option(
      '--connectors',
      "the companion schema for editors: also the connector types' entities, actions and params (completion)",
    )
    .addHelpText(
      'after',
      `
Examples:
  recipe schema > recipe.schema.json
  recipe schema --connectors > recipe.schema.json   # with entity, action and params completion
  # then, first line of a recipe, for the YAML language server (VS Code, Neovim, ...):
  # yaml-language-server: $schema=./recipe.schema.json`,
    )
    .action((flags: { connectors?: boolean }) => {
      const text = flags.connectors ? editorSchemaText() : recipeSchemaText();
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    });
}
