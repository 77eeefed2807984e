/**
 * Which connector actions write. The service says so per action (inspect's `actions[].write`); the client
 * learns that from inspect answers (ConnectorClient.learnActions) and asks the name rule below only for
 * what the service did not say (an older service, or a connector it has not inspected).
 */

/** Action names that only read. */
const READ_ACTIONS = new Set([
  'list',
  'get',
  'api_search',
  'context_store_search',
  'search',
  'inspect',
  'download',
  'describe',
]);

/** Action names that write, for certain. */
const WRITE_ACTIONS = new Set(['create', 'update', 'delete', 'upsert', 'archive', 'merge']);

/**
 * The name rule: true when entity.action may change data (create, update, delete, ...). Anything not known
 * to read is treated as a write (unknown actions included: the safe side).
 */
export function isWriteAction(entity: string, action: string): boolean {
  void entity;
  return !READ_ACTIONS.has(action);
}

/** True when the name rule is certain of the action (a known read or write), so asking the service adds nothing. */
export function isKnownActionName(action: string): boolean {
  return READ_ACTIONS.has(action) || WRITE_ACTIONS.has(action);
}

/**
 * True when repeating the call cannot change the outcome: reads, and the writes the spec calls idempotent
 * (associations create: "repeating it has no effect"; associations delete removes whatever is there).
 * `write` is what the service said of the action; without it, the name rule decides.
 */
export function isSafeToRepeat(entity: string, action: string, write = isWriteAction(entity, action)): boolean {
  if (!write) return true;
  return entity === 'associations' && (action === 'create' || action === 'delete');
}

/** `entity.action` → write, for each action of an inspect answer that says `write: true|false`. */
export function actionWritesOf(inspectAnswer: unknown): Map<string, boolean> {
  const writes = new Map<string, boolean>();
  const actions = (inspectAnswer as { actions?: unknown } | null)?.actions;
  if (!Array.isArray(actions)) return writes;
  for (const a of actions as unknown[]) {
    const { entity, action, write } = (a ?? {}) as { entity?: unknown; action?: unknown; write?: unknown };
    if (typeof entity === 'string' && typeof action === 'string' && typeof write === 'boolean')
      writes.set(`${entity}.${action}`, write);
  }
  return writes;
}
