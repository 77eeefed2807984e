import { InvalidArgumentError } from 'commander';
import { parseDurationMs } from '../client/index.js';

/** A repeatable option's argParser for commander: each occurrence appends its value (`-i a=1 -i b=2`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--retry-for DURATION` (and `--retain`): a number and a unit (ms, s, m, h, d) or 0, in ms. */
export function parseDurationFlag(value: string): number {
  const ms = parseDurationMs(value);
  if (ms === undefined)
    throw new InvalidArgumentError('expected a duration: a number and a unit, e.g. 30s, 10m, 2h, 30d (or 0)');
  return ms;
}

/** The help line of --retry-for, the same on run, resume, test and worker. */
export const RETRY_FOR_HELP =
  'keep retrying transient failures (connection refused, timeouts, 429, 502-504) for up to this long, e.g. 10m (default 10m, or RECIPE_RETRY_FOR; 0: attempts only); a recipe or step retry.max_duration wins';

/** The help line of --retain. */
export const RETAIN_HELP =
  'prune runs that ended longer ago than this from the journal when the run starts (at most 200 each time), e.g. 30d (else RECIPE_RETAIN; default: keep all; `recipe runs prune` still works)';
