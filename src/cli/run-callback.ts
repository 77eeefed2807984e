import { dirname, join } from 'node:path';
import { RecipeError } from '../errors/index.js';
import type { JobCallback } from '../fleet/job.js';
import { journalPath } from '../journal/index.js';
import type { RunReport } from '../run/index.js';
import { sendCallback } from '../triggers/callback.js';
import { DeliveryStore } from '../triggers/deliveries.js';
import { findRecipeDir } from './run/run-embedded.js';

/** The variable holding the secret `recipe run --callback` signs with (unset: the callback is unsigned). */
export const CALLBACK_SECRET_ENV = 'RECIPE_CALLBACK_SECRET';

/** Checks a --callback URL before the run starts (G031): http(s) only. */
export function checkCallbackUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RecipeError('G031', { url, reason: 'not a URL' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new RecipeError('G031', { url, reason: 'only http and https URLs' });
}

/**
 * `recipe submit --callback URL`, `recipe schedule add --callback URL`: the callback the job carries (G031 for a
 * bad URL). Signed when RECIPE_CALLBACK_SECRET is set here: the job then names that variable, and each worker
 * signs with its own value (a job never holds a secret); a worker without it posts nothing (G041).
 */
export function jobCallbackOf(url: string, env: Readonly<Record<string, string | undefined>>): JobCallback {
  checkCallbackUrl(url);
  return { url, ...(env[CALLBACK_SECRET_ENV] ? { secret_env: CALLBACK_SECRET_ENV } : {}) };
}

/**
 * `recipe run --callback URL`: POSTs the run's report when it has ended, signed and retried as a trigger's
 * callback; its outcome is kept in triggers.db beside the journal (unless --no-journal) and said on stderr.
 */
export async function postRunCallback(
  url: string,
  report: RunReport,
  o: {
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly journal: string | false | undefined;
    readonly note: (line: string) => void;
  },
): Promise<void> {
  const secret = o.env[CALLBACK_SECRET_ENV] || undefined;
  const path =
    o.journal === false ? undefined : journalPath(o.journal, process.env, process.cwd(), findRecipeDir(process.cwd()));
  const store =
    path === undefined || path === ':memory:' ? undefined : new DeliveryStore(join(dirname(path), 'triggers.db'));
  try {
    const outcome = await sendCallback({ url, ...(secret ? { secret } : {}) }, report.run_id, report, {
      onAttempt: (a) =>
        store?.noteCallback({
          run_id: report.run_id,
          delivery_id: a.deliveryId,
          url,
          state: a.delivered ? 'delivered' : a.final ? 'failed' : 'sending',
          attempts: a.attempts,
          last_status: a.lastStatus,
          last_error: a.lastError,
          updated_at: Date.now(),
        }),
    });
    o.note(
      outcome.delivered
        ? `result callback delivered to ${url} (${outcome.deliveryId}, attempt ${outcome.attempts})`
        : new RecipeError('G030', { url, attempts: outcome.attempts, reason: outcome.lastError ?? 'refused' }).message,
    );
  } finally {
    store?.close();
  }
}
