import type { Command } from 'commander';
import { displayPath, RecipeError } from '../../errors/index.js';
import { openFleet, requestRedrive, type FleetClient } from '../../fleet/queue.js';
import { follow } from '../fleet/submit.js';
import { journalPath } from '../../journal/index.js';
import { fleetStoreTarget } from '../fleet/fleet-flags.js';
import { collect, parseDurationFlag, RETRY_FOR_HELP } from '../options.js';
import { commandOutput, runEdges } from './run.js';
import type { RunFlags } from './run-types.js';
import { readGivenInputs } from './run-inputs.js';
import { runTarget } from './run-target.js';
import { openRunJournal, printRecorded, resumeRecorded } from './run-journal.js';

interface ResumeFlags extends RunFlags {
  input?: string[];
  redis?: string;
  postgres?: string;
  queue?: string;
  recipes?: string;
  allowChanged?: boolean;
  retryFailedItems?: boolean;
  assumeSent?: string[];
  assumeNotSent?: string[];
  here?: boolean;
  wait?: boolean;
}

/** `recipe resume RUN_ID`: goes on with an interrupted, cancelled or failed run from its journal. */
export function registerResume(program: Command): void {
  program
    .command('resume')
    .description('resume an interrupted or failed run from the journal: recorded calls replay, the rest is sent')
    .argument('<run-id>', 'the run to resume (`recipe runs` lists them)')
    .option('--base-url <url>', 'connector service URL (else CONNECTOR_API_URL, else the embedded service)')
    .option('--organization <id>', 'organization sent as x-organization-id (else CONNECTOR_ORGANIZATION_ID)')
    .option('--db <path>', "the embedded service's database file (default: the nearest .recipe/local.db)")
    .option('--env-file <file>', 'read CONNECTOR_* and secrets from this file (default: .env when present)')
    .option('--no-env-file', 'do not read .env')
    .option('--journal <path>', 'the run journal, a SQLite file (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--redis <url>', 'a fleet run: the workers resume it (its job goes back to the queue); docs/fleet.md')
    .option('--postgres <url>', 'a fleet run on PostgreSQL: the workers resume it, as with --redis')
    .option('--queue <name>', 'with --redis/--postgres: the queue (default recipe-runs)')
    .option('--here', "with --redis/--postgres: resume it on this machine instead, with this machine's credentials")
    .option('--no-wait', 'with --redis/--postgres: enqueue the resume and exit, without following the run to its end')
    .option('--recipes <dir>', "with --here: the recipes directory, as the workers' --recipes (default: here)")
    .option('--allow-changed', 'resume even though the recipe (or a file it calls) changed since the run started')
    .option('--retry-failed-items', 'send again every call that failed (foreach items under on_error: continue)')
    .option('--assume-sent <step-path>', 'settle a write in doubt as applied (its result is null); repeatable', collect)
    .option(
      '--assume-not-sent <step-path>',
      'settle a write in doubt as not applied (send it again); repeatable',
      collect,
    )
    .option(
      '-i, --input <name=value>',
      'an input the journal kept masked (it held a secret value), given again; repeatable',
      collect,
    )
    .option('--retry-for <duration>', RETRY_FOR_HELP, parseDurationFlag)
    .option('--json', 'print one JSON run report on stdout; logs go to stderr')
    .option('-q, --quiet', 'no progress and no log lines, only outputs and errors')
    .option('-v, --verbose', 'also print debug lines (every request, retries, waits)')
    .addHelpText(
      'after',
      `
The inputs, --connector and --dry-run come from the journal; the connection (--base-url, CONNECTOR_*) and
the recipe's secrets from the environment, as for \`recipe run\`. An input whose value held a secret is
journaled masked: give it again with -i (J010 says which). A run that failed is redriven: its successful
calls replay and the call that failed it is sent again.

Exit codes: as \`recipe run\`; 2 also for an unknown run id, a changed recipe without --allow-changed,
or a run held by a live process; 1 for writes in doubt that nothing settles (the error lists them).

Examples:
  recipe runs --status interrupted
  recipe resume 3f9c0a1b2d4e
  recipe resume 3f9c0a1b2d4e --allow-changed --retry-failed-items
  recipe resume 3f9c0a1b2d4e --assume-not-sent 'notes[17].note'
  recipe resume 3f9c0a1b2d4e -i hook_url="$HOOK_URL"     an input the journal kept masked (J010)
  recipe resume nightly-1795000000000 --redis redis://127.0.0.1:6379          a worker resumes a fleet run
  recipe resume nightly-1795000000000 --redis redis://127.0.0.1:6379 --here --recipes recipes/   here`,
    )
    .action(async (runId: string, flags: ResumeFlags) => {
      process.exitCode = await resumeCommand(runId, flags);
    });
}

async function resumeCommand(runId: string, flags: ResumeFlags): Promise<number> {
  const out = commandOutput(flags);
  let store;
  let fleet: FleetClient | undefined;
  try {
    if ((flags.redis !== undefined || flags.postgres !== undefined) && flags.here !== true)
      return await resumeOnFleet(runId, flags);
    if (flags.redis !== undefined || flags.postgres !== undefined) {
      // A fleet run, resumed on this machine: its journal is the fleet's, its recipe this checkout's copy.
      const { store: fleetStore, queue } = fleetStoreTarget(flags, {});
      fleet = await openFleet(fleetStore, queue, flags.recipes ?? process.cwd());
      store = fleet.journal;
    } else store = await openRunJournal({ ...(flags.journal !== undefined ? { journal: flags.journal } : {}) });
    if (!store) throw new RecipeError('J008', { flag: '--no-journal', reason: 'resume reads the journal' });
    const record = await store.getRun(runId);
    if (!record)
      throw new RecipeError('J001', {
        runId,
        journal: fleet
          ? `${fleet.store.kind} (queue ${fleet.queue.name})`
          : displayPath(journalPath(flags.journal || undefined, process.env, process.cwd())),
      });
    if (record.status === 'succeeded') return printRecorded(record, flags, out, runEdges);
    const given = await readGivenInputs(undefined, flags.input);
    return await resumeRecorded(
      store,
      record,
      flags,
      out,
      runEdges,
      runTarget(flags),
      {
        allowChanged: flags.allowChanged === true,
        retryFailedItems: flags.retryFailedItems === true,
        assumeSent: flags.assumeSent ?? [],
        assumeNotSent: flags.assumeNotSent ?? [],
      },
      given.values ?? {},
    );
  } catch (err) {
    return out.fail(err);
  } finally {
    if (fleet) await fleet.close();
    else await store?.close();
  }
}

/**
 * `resume --redis` (without --here): the request goes to the workers through the run's job; a worker resumes
 * the run with its own connection and secrets, and its log says so. Follows the run to its end unless --no-wait.
 */
async function resumeOnFleet(runId: string, flags: ResumeFlags): Promise<number> {
  const out = commandOutput(flags);
  let fleet: FleetClient | undefined;
  try {
    if (flags.input?.length)
      throw new RecipeError('F022', {
        runId,
        reason: '-i is not sent to the workers (inputs could hold secrets); resume it here with --here -i ...',
      });
    const { store, queue } = fleetStoreTarget(flags, {});
    fleet = await openFleet(store, queue);
    await requestRedrive(fleet, runId, {
      allow_changed: flags.allowChanged === true,
      retry_failed_items: flags.retryFailedItems === true,
      assume_sent: flags.assumeSent ?? [],
      assume_not_sent: flags.assumeNotSent ?? [],
    });
    if (!flags.quiet) process.stderr.write(`run ${runId} queued for the workers to resume (queue ${queue})\n`);
    if (flags.wait === false) {
      process.stdout.write(
        flags.json ? `${JSON.stringify({ run_id: runId, queue, status: 'queued' })}\n` : `${runId}\n`,
      );
      return 0;
    }
    return await follow(fleet, runId, flags.json ? { json: true } : {}, (line) => {
      if (!flags.quiet) process.stderr.write(`${line}\n`);
    });
  } catch (err) {
    return out.fail(err);
  } finally {
    await fleet?.close();
  }
}
