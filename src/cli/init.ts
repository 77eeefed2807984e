import { existsSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from './exit-codes.js';
import { outsideFileDependency } from './init-dependency.js';

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
  .vscode/settings.json               the schemas for the YAML extension: recipes (with the connectors'
                                      entities and actions) and *.test.yaml (recipe test)
  .gitignore                          .recipe/ (the local database), .env, junit.xml, out/ and dry-run.json;
                                      an existing one gets the missing lines added

Warns when package.json takes recipe from a file: path outside the repository (npm ci on a fresh clone
would fail: see the README's "Install").

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
  const warning = await outsideFileDependency(root);
  if (warning) process.stderr.write(`${warning}\n`);
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

/** What the scaffold's runs write and a repository should not hold: the local database, JUnit and dry-run reports, out/. */
const IGNORED = ['.recipe/', '.env', 'junit.xml', 'dry-run.json', 'out/'];

/** An existing .gitignore gets each of IGNORED it does not list yet. */
async function addIgnoreLine(file: string, shown: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  const listed = new Set(text.split('\n').map((line) => line.trim().replace(/^\//, '')));
  const missing = IGNORED.filter((entry) => !listed.has(entry) && !listed.has(entry.replace(/\/$/, '')));
  if (missing.length === 0) return `kept     ${shown} (already ignores ${IGNORED.join(', ')})`;
  const lead = text === '' || text.endsWith('\n') ? '' : '\n';
  await appendFile(file, `${lead}# recipe: local database, reports\n${missing.join('\n')}\n`);
  return `updated  ${shown} (added ${missing.join(', ')})`;
}
