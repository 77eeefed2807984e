import path from 'node:path';
import type { Command } from 'commander';
import { RecipeError } from '../errors/index.js';
import { install, update, vendor, verify } from '../deps/index.js';
import { storeRoot } from '../packages/index.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';

interface Common {
  project: string;
  registry?: string;
}

/** `recipe deps`: pins the recipes a project calls from git and npm in recipe.lock, and keeps them offline. */
export function registerDeps(program: Command): void {
  const deps = program
    .command('deps')
    .description('shared recipes (call: git:..., npm:...): pin them in recipe.lock, fetch, vendor, verify')
    .addHelpText(
      'after',
      `
Only these commands fetch and write recipe.lock; run, validate, test, submit and the worker read the
vendored copy, then the store (RECIPE_STORE, default ~/.cache/recipe/store), and never touch the network.
Fetching uses your own git (no hooks, no prompts) and npm (npm pack --ignore-scripts, your .npmrc).

Examples:
  recipe deps install                       pin what recipe.lock lacks, fetch what the store lacks
  CI=true recipe deps install               --frozen: fail if recipe.lock would change
  recipe deps update acme/recipes           move a package to where its ref points now (Markdown diff)
  recipe deps update --to v1.5.0 acme/recipes
  recipe deps vendor                        copy the exact files into vendor/
  recipe deps verify --online               re-hash; report moved tags, unreachable commits, republished npm versions

Exit codes: 0 ok, 1 verify found problems, 2 lock out of date (--frozen) or a bad source, 3 git/npm failed.`,
    );
  const common = (c: Command) =>
    c
      .option('-C, --project <dir>', 'the folder holding the recipes and recipe.lock', '.')
      .option('--registry <url>', 'the npm registry to fetch from (default: your npm configuration)');

  common(deps.command('install').description('pin what recipe.lock lacks; fetch what the store lacks'))
    .option('--frozen', 'fail instead of changing recipe.lock (default when CI=true)')
    .option('--no-frozen', 'allow changing recipe.lock even when CI=true')
    .action(async (o: Common & { frozen?: boolean }) => {
      await guarded(async () => {
        const frozen = o.frozen ?? process.env.CI === 'true';
        const r = await install({ dir: path.resolve(o.project), store: storeRoot(), frozen, ...reg(o) });
        const n = Object.keys(r.lock.packages).length;
        process.stdout.write(
          `${r.changed ? 'wrote' : 'kept'} ${path.relative(process.cwd(), r.lockFile) || r.lockFile}: ${n} package${n === 1 ? '' : 's'}` +
            (r.fetched.length > 0 ? `, resolved ${r.fetched.join(', ')}` : '') +
            '\n',
        );
      });
    });

  common(deps.command('update').description('resolve packages again; print the change as Markdown'))
    .argument('[packages...]', 'lock keys or parts of them (a URL, a package name); none: all')
    .option('--to <ref>', 'resolve this ref or version instead of the one in the call')
    .option('--accept-moved', 'accept a ref that moved to a commit not descending from the locked one')
    .action(async (names: string[], o: Common & { to?: string; acceptMoved?: boolean }) => {
      await guarded(async () => {
        const { markdown } = await update({
          dir: path.resolve(o.project),
          store: storeRoot(),
          names,
          ...(o.to ? { to: o.to } : {}),
          acceptMoved: o.acceptMoved === true,
          ...reg(o),
        });
        process.stdout.write(markdown);
      });
    });

  deps
    .command('vendor')
    .description('copy the locked packages into the repository (runs read them first)')
    .option('-C, --project <dir>', 'the folder holding recipe.lock', '.')
    .option('--dir <dir>', 'where to put them, relative to recipe.lock (default vendor)')
    .action(async (o: { project: string; dir?: string }) => {
      await guarded(async () => {
        const r = vendor({ dir: path.resolve(o.project), store: storeRoot(), ...(o.dir ? { vendorDir: o.dir } : {}) });
        process.stdout.write(`vendored ${r.packages} package${r.packages === 1 ? '' : 's'} into ${r.dir}\n`);
      });
    });

  deps
    .command('verify')
    .description('re-hash the vendored or stored packages; --online also asks the remotes')
    .option('-C, --project <dir>', 'the folder holding recipe.lock', '.')
    .option(
      '--online',
      'report refs that moved, commits no longer reachable from their ref, npm versions unpublished or republished',
    )
    .option('--registry <url>', 'the npm registry to ask (default: your npm configuration)')
    .option('--json', 'print the problems as JSON')
    .action(async (o: { project: string; online?: boolean; json?: boolean; registry?: string }) => {
      await guarded(async () => {
        const problems = await verify({
          dir: path.resolve(o.project),
          store: storeRoot(),
          online: o.online === true,
          ...reg(o),
        });
        if (o.json) process.stdout.write(`${JSON.stringify({ ok: problems.length === 0, problems }, null, 2)}\n`);
        else if (problems.length === 0) process.stdout.write('ok: every package matches recipe.lock\n');
        else for (const p of problems) process.stdout.write(`${p.kind}: ${p.key}: ${p.detail}\n`);
        if (problems.length > 0) process.exitCode = ExitCode.runFailed;
      });
    });
}

function reg(o: Common): { registry?: string } {
  return o.registry ? { registry: o.registry } : {};
}

async function guarded(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof RecipeError)) throw err;
    process.stderr.write(`error ${err.code}: ${err.message}\n`);
    process.exitCode = exitCodeFor(err.class);
  }
}
