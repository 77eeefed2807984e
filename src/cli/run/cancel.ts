import type { Command } from 'commander';
import { RecipeError } from '../../errors/index.js';
import type { CancelRequest, JournalStore } from '../../journal/index.js';
import { exitCodeFor, ExitCode } from '../exit-codes.js';
import { fleetStoreTarget } from '../fleet/fleet-flags.js';
import { openRunJournal } from './run-journal.js';

interface CancelFlags {
  reason?: string;
  journal?: string;
  redis?: string;
  postgres?: string;
  queue?: string;
  json?: boolean;
}

/** A reason is a line for `runs show` and the report: short, one line. */
const MAX_REASON = 500;

/**
 * `recipe cancel RUN`: stores a cancel request in the run's journal (the local one, or the fleet's with
 * --redis). The process running it (this machine's `recipe run`, or a fleet worker) sees it within a quarter
 * of a second, aborts what it has in flight, sends nothing more and ends the attempt `cancelled` (X021).
 */
export function registerCancel(program: Command): void {
  program
    .command('cancel')
    .description('stop a running run: it sends nothing more, ends cancelled, and can be resumed later')
    .argument('<run-id>', 'the run to stop (`recipe runs` lists them)')
    .option('--reason <text>', 'why, recorded with the run (its report says "run cancelled by `recipe cancel`: TEXT")')
    .option('--journal <path>', 'the run journal, a SQLite file (default .recipe/runs.db, or RECIPE_JOURNAL)')
    .option('--redis <url>', "a fleet run: the fleet's journal on this Redis (else RECIPE_REDIS_URL with --queue)")
    .option(
      '--postgres <url>',
      "a fleet run on PostgreSQL: the fleet's journal there (else RECIPE_POSTGRES_URL with --queue)",
    )
    .option('--queue <name>', 'with --redis/--postgres: the queue (default recipe-runs)')
    .option('--json', 'print the request as JSON: {run_id, attempt, reason, requested_at}')
    .addHelpText(
      'after',
      `
What happens: the request is stored in the journal; the process running the run polls for it (every 250 ms),
aborts the requests it has in flight, sends nothing more and records the attempt as cancelled (X021, exit 130).
A write that was in flight when it stopped is in doubt: \`recipe resume RUN\` settles it with its
Idempotency-Key (or its lookup), as after a crash, then sends only what the run had not done.
\`recipe cancel\` returns once the request is stored; \`recipe runs show RUN\` shows when the run stopped.
Only a running run can be cancelled (J020 otherwise).

Examples:
  recipe cancel 20260715-0900-ab12 --reason "wrong input file"
  recipe cancel nightly-42 --redis redis://127.0.0.1:6379       a fleet run, wherever its worker is
  recipe resume 20260715-0900-ab12                                 later: go on where it stopped`,
    )
    .action(async (runId: string, flags: CancelFlags) => {
      process.exitCode = await cancelCommand(runId, flags);
    });
}

async function cancelCommand(runId: string, flags: CancelFlags): Promise<number> {
  let store: JournalStore | undefined;
  let close: (() => Promise<void>) | undefined;
  try {
    const reason = flags.reason?.trim().replace(/\s+/g, ' ') ?? null;
    if (reason !== null && (reason === '' || reason.length > MAX_REASON))
      throw new RecipeError('J008', { flag: '--reason', reason: `one line of 1 to ${MAX_REASON} characters` });
    if (flags.redis !== undefined || flags.postgres !== undefined) {
      const { openFleet } = await import('../../fleet/queue.js');
      const { store: fleetStore, queue } = fleetStoreTarget(flags, {});
      const fleet = await openFleet(fleetStore, queue);
      store = fleet.journal;
      close = () => fleet.close();
    } else {
      store = await openRunJournal({ runId, ...(flags.journal !== undefined ? { journal: flags.journal } : {}) });
      close = () => store?.close() ?? Promise.resolve();
    }
    if (!store) throw new RecipeError('J008', { flag: '--no-journal', reason: 'a cancel needs the journal' });
    const request: CancelRequest = await store.requestCancel(runId, reason, Date.now());
    if (flags.json) process.stdout.write(`${JSON.stringify({ run_id: runId, ...request }, null, 2)}\n`);
    else
      process.stderr.write(
        `cancel requested for run ${runId} (attempt ${request.attempt}); it stops within a second; \`recipe resume ${runId}\` goes on later\n`,
      );
    return ExitCode.ok;
  } catch (err) {
    const e = err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error).message });
    process.stderr.write(`${e.code} ${e.message}\n`);
    return exitCodeFor(e.class);
  } finally {
    await close?.();
  }
}
