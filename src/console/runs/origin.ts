/**
 * Who started a run, in words, from the `origin` startRun journals in the run's options (plain data):
 * `trigger deal-won (delivery evt_1)`, `schedule nightly`, `recipe submit`, `mcp client claude@1.2 over stdio`.
 * Null for a run started at a terminal (`recipe run`), which journals none. The console's runs list and run
 * page show it, and `recipe runs show` prints it.
 */
export function describeOrigin(origin: unknown): string | null {
  if (typeof origin !== 'object' || origin === null || Array.isArray(origin)) return null;
  const o = origin as Record<string, unknown>;
  const words = originWords(o);
  const callback = o.callback as { url?: unknown } | undefined;
  return typeof callback?.url === 'string' ? `${words}, result to ${callback.url}` : words;
}

function originWords(o: Record<string, unknown>): string {
  if (o.kind === 'trigger') return `trigger ${String(o.trigger)} (delivery ${String(o.delivery_id)})`;
  if (o.kind === 'schedule') return `schedule ${String(o.schedule)}`;
  if (o.kind === 'submit') return 'recipe submit';
  if (o.kind === 'mcp') {
    const caller = (o.caller ?? {}) as Record<string, unknown>;
    return `mcp client ${String(caller.client)} over ${String(caller.transport)}`;
  }
  return JSON.stringify(o);
}
