import { existsSync } from 'node:fs';
import { displayPath, RecipeError } from '../../errors/index.js';
import { ConsoleError } from '../errors.js';
import type { ConsoleActions } from './console-actions.js';

/**
 * Actions on a local journal file: cancel only, through the journal store `recipe cancel` uses (opened for
 * the request and closed after: the console keeps no write handle on the file). The process running the run
 * sees the request within its poll. A redrive runs the recipe, with this machine's connection and secrets,
 * so it stays `recipe resume RUN` in a terminal; schedules belong to a fleet.
 */
export function journalFileActions(path: string): ConsoleActions {
  const redriveUnavailable = 'a run of a local journal is resumed on its machine: `recipe resume RUN`';
  const schedulesUnavailable = 'schedules belong to a fleet: start the console with --redis or --postgres';
  return {
    label: path,
    cancelUnavailable: null,
    redriveUnavailable,
    schedulesUnavailable,
    submitUnavailable: schedulesUnavailable.replace('schedules belong', 'a submit goes'),
    async cancel(runId, reason) {
      // Opening a store creates its file: a console must not make a journal where there was none.
      if (!existsSync(path)) throw new RecipeError('J001', { runId, journal: displayPath(path) });
      const { openJournal } = await import('../../journal/index.js');
      const store = openJournal(path);
      try {
        return await store.requestCancel(runId, reason, Date.now());
      } finally {
        await store.close();
      }
    },
    redrive: () => Promise.reject(new ConsoleError('K506', { message: redriveUnavailable })),
    listSchedules: () => Promise.reject(new ConsoleError('K506', { message: schedulesUnavailable })),
    pauseSchedule: () => Promise.reject(new ConsoleError('K506', { message: schedulesUnavailable })),
    resumeSchedule: () => Promise.reject(new ConsoleError('K506', { message: schedulesUnavailable })),
    submit: () =>
      Promise.reject(
        new ConsoleError('K506', { message: 'a submit goes to a fleet: start the console with --redis or --postgres' }),
      ),
    close: () => Promise.resolve(),
  };
}
