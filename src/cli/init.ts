import { existsSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from './exit-codes.js';

/** The scaffold's files, stored without leading dots (npm pack drops or renames some dotfiles). */
const TEMPLATES = new URL('../../templates/init/', import.meta.url);

/** Template path → path in the new repository. */
const RENAMES: Record<string, string> = {
  gitignore: '.gitignore',
  'github/workflows/recipes.yml': '.github/workflows/recipes.yml',
  'vscode/settings.json': '.vscode/settings.json',
};

/** `recipe init [DIR]`: scaffolds a recipes repository; never overwrites a file that exists. */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('start a recipes repository: an example recipe, fixtures, a CI workflow, editor settings')
    .argument('[dir]', 'the folder to set up (created when missing)', '.')
    .addHelpText(
      'after',
      `
Writes (each only when it does not exist yet):
  recipes/deals-closing-soon.yaml     an example recipe
  recipes/deals-closing-soon.test.yaml  its tests (recipe test)
  fixtures/crm.yaml                   a small CRM dataset for hermetic runs (--fixtures)
  .github/workflows/recipes.yml       validate, test and dry-run on pull requests (GitHub Actions)
  .vscode/settings.json               the recipe schema for the YAML extension
  .gitignore                          .recipe/ (the local database); an existing one gets the line added

Examples:
  recipe init my-recipes
  recipe init .`,
    )
    .action(async (dir: string) => {
      process.exitCode = await init(resolve(dir));
    });
}

async function init(root: string): Promise<number> {
  const lines: string[] = [];
  try {
    for (const template of await listTemplates(TEMPLATES.pathname)) {
      const target = join(root, RENAMES[template] ?? template);
      const shown = relative(process.cwd(), target) || target;
      if (template === 'gitignore' && existsSync(target)) {
        lines.push(await addIgnoreLine(target, shown));
        continue;
      }
      if (existsSync(target)) {
        lines.push(`kept     ${shown} (exists)`);
        continue;
      }
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(TEMPLATES.pathname, template), target);
      lines.push(`created  ${shown}`);
    }
  } catch (err) {
    process.stderr.write(`recipe init: ${(err as Error).message}\n`);
    return ExitCode.runFailed;
  }
  const at = relative(process.cwd(), root);
  const cd = at === '' ? '' : `cd ${at} && `;
  process.stdout.write(`${lines.join('\n')}

Next:
  ${cd}npm install --save-dev <the recipe package>   (the workflow runs npm ci; see the README's "Install")
  npx recipe validate .
  npx recipe run recipes/deals-closing-soon.yaml --fixtures fixtures/crm.yaml --now 2026-07-15T09:00:00Z --dry-run
`);
  return ExitCode.ok;
}

/** Every file under the templates folder, as paths relative to it, sorted. */
async function listTemplates(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listTemplates(dir, path)));
    else out.push(path);
  }
  return out.sort();
}

/** An existing .gitignore gets `.recipe/` when it does not ignore it yet. */
async function addIgnoreLine(file: string, shown: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  if (/^\/?\.recipe\/?\s*$/m.test(text)) return `kept     ${shown} (already ignores .recipe/)`;
  await appendFile(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}# recipe: the local database\n.recipe/\n`);
  return `updated  ${shown} (added .recipe/)`;
}
