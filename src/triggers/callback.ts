import { DELIVERY_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';

/** Where and how a run's report is posted when the run ends. */
export interface CallbackTarget {
  readonly url: string;
  /** The HMAC secret (the value); undefined: sent unsigned. */
  readonly secret?: string;
  /** Attempts in all, the first included (default 5). */
  readonly attempts?: number;
}

/** How one callback ended, after its retries. */
export interface CallbackOutcome {
  readonly deliveryId: string;
  readonly delivered: boolean;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

/** What sending needs besides the target: the clock and the waits (a test passes quick ones), progress. */
export interface CallbackDeps {
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Called after every attempt (the journal row beside the run is updated with it). */
  readonly onAttempt?: (o: CallbackOutcome & { readonly final: boolean }) => void;
}

/** The delivery id of a run's result callback: one per run, the same on every retry, so a receiver dedupes. */
export function callbackDeliveryId(runId: string): string {
  return `run-${runId}`;
}

/** Waits before attempt n+1 (n ≥ 1): 1 s, 2 s, 4 s… capped at 60 s. */
export function callbackBackoffMs(n: number): number {
  return Math.min(60_000, 1000 * 2 ** (n - 1));
}

/**
 * POSTs a run's report (JSON) to the callback URL, signed as deliveries are (X-Recipe-Signature over
 * "<t>.<body>", a new timestamp on each attempt), with X-Delivery-Id = run-<run id>. A network error, 408, 429
 * or 5xx is retried with backoff; any other 4xx is final (the receiver refused it). Never throws.
 */
export async function sendCallback(
  target: CallbackTarget,
  runId: string,
  report: unknown,
  deps: CallbackDeps = {},
): Promise<CallbackOutcome> {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const attempts = target.attempts ?? 5;
  const deliveryId = callbackDeliveryId(runId);
  const body = JSON.stringify(report);
  let lastStatus: number | null = null;
  let lastError: string | null = null;
  for (let n = 1; n <= attempts; n++) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [DELIVERY_HEADER]: deliveryId,
      'x-recipe-run-id': runId,
      'user-agent': 'recipe-callback/1',
    };
    if (target.secret !== undefined)
      headers[SIGNATURE_HEADER] = signatureHeader(target.secret, Math.floor(now() / 1000), body);
    let retry: boolean;
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
      await res.body?.cancel();
      lastStatus = res.status;
      lastError = null;
      if (res.status >= 200 && res.status < 300) {
        const done = { deliveryId, delivered: true, attempts: n, lastStatus, lastError };
        deps.onAttempt?.({ ...done, final: true });
        return done;
      }
      retry = res.status === 408 || res.status === 429 || res.status >= 500;
      lastError = `answered ${res.status}`;
    } catch (err) {
      lastStatus = null;
      lastError = (err as Error).message;
      retry = true;
    }
    const final = !retry || n === attempts;
    deps.onAttempt?.({ deliveryId, delivered: false, attempts: n, lastStatus, lastError, final });
    if (final) return { deliveryId, delivered: false, attempts: n, lastStatus, lastError };
    await sleep(callbackBackoffMs(n));
  }
  return { deliveryId, delivered: false, attempts, lastStatus, lastError };
}
