import type { CatalogEntry } from './types.js';

/**
 * J: the run journal, resume and writes in doubt. Owned by src/journal/ (the store) and src/run/ (replay).
 */
export const journalCodes = {
  J001: { template: 'no run "{runId}" in the journal {journal}', class: 'invalid' },
  J002: {
    template:
      'run {runId}: {changed} changed since the run started ({detail}); resuming under a changed recipe can replay answers that no longer fit it. Pass --allow-changed to take that risk',
    class: 'invalid',
  },
  J003: { template: 'run {runId} is held by a live process ({holder}); wait for it to end', class: 'invalid' },
  J004: {
    template:
      'run {runId}: {count} write(s) in doubt: sent, but no answer was recorded, so the service may or may not have applied them; the service does not honour Idempotency-Key and the step has no in_doubt lookup.\n{writes}\nSettle each: `recipe resume {runId} --assume-sent STEP_PATH` (it was applied: its result is null) or `--assume-not-sent STEP_PATH` (send it again)',
    class: 'run',
  },
  J005: {
    template:
      'step {stepPath}: the recipe now sends a different {what} than attempt {attempt} recorded for this write ({callKey}); the journal cannot vouch for it. Resume under the recipe the run started with, or start a new run',
    class: 'run',
  },
  J006: { template: 'run id "{runId}" is already used in the journal {journal}', class: 'invalid' },
  J007: { template: 'cannot open the run journal {journal}: {reason}', class: 'config' },
  J008: { template: '{flag}: {reason}', class: 'invalid' },
  J009: {
    template:
      'the run journal could not record run {runId} ({reason}); the run stops, as it could not be resumed safely',
    class: 'run',
  },
  J010: {
    template:
      'run {runId}: input "{name}" held a secret value, which the journal keeps only masked; {problem} again: `recipe resume {runId} -i {name}=VALUE`',
    class: 'invalid',
  },
  J011: {
    template:
      'run {runId}: its part {part} can be held only by the process that holds the run on the journal {journal}, and this one does not',
    class: 'invalid',
  },
  J020: {
    template: 'run {runId} is {status}: only a running run can be cancelled (`recipe resume {runId}` goes on with it)',
    class: 'invalid',
  },
  J021: {
    template:
      'run id "{runId}" is already a run ({status}) with other inputs ({names}): a run id names one run; leave --run-id out or choose a new one{hint}',
    class: 'invalid',
  },
} satisfies Record<string, CatalogEntry>;
