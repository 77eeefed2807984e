import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { formatLocation, RecipeError } from '../errors/index.js';
import { fleetStoreFrom } from '../fleet/fleet-store.js';
import { pinnedPath } from '../fleet/recipe-pin.js';
import { journalPath } from '../journal/index.js';
import { checkRecipe } from '../run/index.js';
import { formatDiagnostic } from '../source/index.js';
import { Deliveries } from '../triggers/deliver.js';
import { DeliveryStore } from '../triggers/deliveries.js';
import { LocalRunner } from '../triggers/local-runner.js';
import { startTriggerServer, TriggerUsageError } from '../triggers/server.js';
import { loadTriggers, type Trigger } from '../triggers/trigger-file.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import { fleetStoreTarget, STORE_OPTION_HELP, type FleetFlags } from './fleet/fleet-flags.js';
import { FleetRunner, type FleetRunnerOptions } from './triggers-fleet.js';
import { openRunSide, type RunSideFlags } from './run-side.js';
import { findRecipeDir } from './run/run-embedded.js';

interface TriggersFlags extends RunSideFlags, FleetFlags {
  dir: string;
  recipes?: string;
  host: string;
  port: string;
  token?: string;
  deliveries?: string;
}

/** `recipe triggers`: serves POST /hooks/{name} for the triggers of a folder until Ctrl-C. */
export function registerTriggers(program: Command): void {
  program
    .command('triggers')
    .description('serve signed webhook triggers: POST /hooks/{name} starts one run per delivery (triggers/*.yaml)')
    .option('--dir <dir>', 'the folder of trigger files (*.yaml)', 'triggers')
    .option('--host <host>', 'interface to listen on (any other than loopback needs a token)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', '8092')
    .option('--token <token>', 'require this token from every request (or RECIPE_TRIGGERS_TOKEN; 16+ characters)')
    .option('--base-url <url>', 'connector service the runs talk to (else CONNECTOR_API_URL, else the embedded one)')
    .option('--organization <id>', 'organization sent as x-organization-id (else CONNECTOR_ORGANIZATION_ID)')
    .option('--fixtures <file>', 'runs use an embedded service holding only this dataset')
    .option('--db <path>', "the embedded service's database file, or :memory:")
    .option('--journal <path>', 'the run journal (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--redis <url>', `runs_on: fleet triggers: ${STORE_OPTION_HELP.redis}`)
    .option('--postgres <url>', `runs_on: fleet triggers: ${STORE_OPTION_HELP.postgres}`)
    .option('--queue <name>', 'runs_on: fleet triggers: the queue (default recipe-runs)')
    .option(
      '--recipes <dir>',
      "runs_on: fleet triggers: the workers' recipes directory (default: the working directory)",
    )
    .option('--deliveries <path>', 'where delivery ids and callbacks are kept (default triggers.db beside the journal)')
    .option('--env-file <file>', 'read CONNECTOR_* and secrets from this file (default: .env when present)')
    .option('--no-env-file', 'do not read .env')
    .addHelpText(
      'after',
      `
Prints one line "triggers at http://HOST:PORT/" once it accepts deliveries; stops on Ctrl-C or SIGTERM
(after the runs it started have ended).

A delivery: POST /hooks/{name} with the JSON payload and
  X-Recipe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
  X-Delivery-Id: <id>   (optional; default the SHA-256 of the body): the same id never starts a second run
Answers 202 {run_id, status: "running"} at once, or 200 {..., report} with ?wait=30s once the run ended.
A trigger file with \`runs_on: fleet\` enqueues its runs for \`recipe worker\`s instead (as \`recipe submit\`;
202 {status: "queued"}), on the store of --redis or --postgres; the run id is derived from the delivery id.
Errors: 4xx {code, error_code, message, field?} (docs/triggers.md lists them).

Examples:
  DEAL_HOOK_SECRET=... recipe triggers                       triggers/*.yaml on http://127.0.0.1:8092/
  recipe triggers --dir ops/triggers --port 0 --fixtures ci/crm.yaml
  RECIPE_TRIGGERS_TOKEN=... recipe triggers --host 0.0.0.0      reachable from other machines, with a token`,
    )
    .action(async (flags: TriggersFlags) => {
      process.exitCode = await triggersCommand(flags);
    });
}

async function triggersCommand(flags: TriggersFlags): Promise<number> {
  const note = (line: string): boolean => process.stderr.write(`${line}\n`);
  let side: Awaited<ReturnType<typeof openRunSide>> | undefined;
  let store: DeliveryStore | undefined;
  let fleet: FleetRunner | undefined;
  try {
    const triggers = await loadTriggers(flags.dir);
    if (triggers.length === 0)
      throw new RecipeError('G006', { flag: `--dir ${flags.dir}`, reason: 'holds no *.yaml trigger file' });
    const port = Number(flags.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new RecipeError('G006', { flag: `--port ${flags.port}`, reason: 'a port is an integer from 0 to 65535' });
    const fleetTarget = fleetTargetOf(triggers, flags);
    side = await openRunSide(flags);
    for (const t of triggers) checkSecrets(t, side.env);
    // Every recipe is checked now, so a broken one stops the server before it accepts a delivery.
    for (const t of triggers) {
      const checked = await checkRecipe(t.recipe, side.catalog ? { catalog: side.catalog } : {});
      if (!checked.recipe)
        throw new RecipeError('G005', {
          file: t.file,
          recipe: t.recipe,
          message: `\n${checked.diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`,
        });
    }
    for (const n of side.notes) note(n);
    fleet = fleetTarget ? await FleetRunner.open(fleetTarget) : undefined;
    store = new DeliveryStore(deliveriesPath(flags));
    const deliveries = new Deliveries({
      runner: new LocalRunner({ ...side, log: note }),
      ...(fleet ? { fleet } : {}),
      store,
      env: side.env,
      log: note,
    });
    const token = flags.token ?? (process.env.RECIPE_TRIGGERS_TOKEN || undefined);
    const server = await startTriggerServer({
      triggers,
      deliveries,
      host: flags.host,
      port,
      ...(token !== undefined ? { token } : {}),
    });
    process.stdout.write(`triggers at ${server.url}/\n`);
    for (const t of triggers)
      note(
        `  POST ${server.url}/hooks/${t.name} → ${t.recipe}${t.runsOn === 'fleet' ? ' (on the fleet)' : ''}` +
          `${t.secretEnv ? '' : ' (unsigned: signature: none)'}`,
      );
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await server.close();
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof TriggerUsageError) {
      note(`G006 ${err.message}`);
      return ExitCode.invalid;
    }
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    note(`${formatLocation(e.location)}${e.code} ${e.message}`);
    return exitCodeFor(e.class);
  } finally {
    store?.close();
    await fleet?.close();
    await side?.close();
  }
}

/**
 * Where the `runs_on: fleet` triggers enqueue (none when no trigger does), checked before anything starts: G040
 * when no store is named, F006/F009 for the flags, F002 when a recipe is outside the workers' recipes directory.
 */
function fleetTargetOf(triggers: readonly Trigger[], flags: TriggersFlags): FleetRunnerOptions | undefined {
  const onFleet = triggers.filter((t) => t.runsOn === 'fleet');
  const first = onFleet[0];
  if (!first) return undefined;
  if (!fleetStoreFrom(flags, process.env)) throw new RecipeError('G040', { file: first.file });
  const { store, queue } = fleetStoreTarget(flags, process.env);
  const recipesDir = resolve(flags.recipes ?? process.cwd());
  for (const t of onFleet) pinnedPath(recipesDir, t.recipe);
  return { store, queue, recipesDir };
}

/**
 * A signed trigger whose secret is not set would refuse every delivery: refused at start-up instead. A fleet
 * run's callback is signed by the worker, with the worker's variable.
 */
function checkSecrets(t: Trigger, env: Readonly<Record<string, string | undefined>>): void {
  for (const name of [t.secretEnv, t.runsOn === 'local' ? t.callback?.secretEnv : undefined])
    if (name !== undefined && !env[name]) throw new RecipeError('G004', { file: t.file, variable: name });
}

function deliveriesPath(flags: TriggersFlags): string {
  if (flags.deliveries !== undefined) return resolve(flags.deliveries);
  const journal = journalPath(flags.journal, process.env, process.cwd(), findRecipeDir(process.cwd()));
  return journal === ':memory:' ? ':memory:' : join(dirname(journal), 'triggers.db');
}
