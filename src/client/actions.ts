/**
 * Which connector actions write, decided here only (house rule 14). The service says so per action (inspect's
 * `actions[].write`, the OpenAPI document's `x-write`); `writes` takes its word and falls back to the name
 * rule below only for what it did not say (an older service, or a connector the client has not inspected).
 * No entity names: a fact about one connector's entity comes from its service.
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
 * The one definition of "this action writes": what the service said of it (`said`: inspect's
 * `actions[].write` or an OpenAPI variant's `x-write`, as it came; anything but a boolean is no word), else
 * the name rule.
 */
export function writes(said: unknown, entity: string, action: string): boolean {
  return typeof said === 'boolean' ? said : isWriteAction(entity, action);
}

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
 * True when repeating the call cannot change the outcome: reads, and the writes the service calls idempotent
 * (`idempotent`: inspect's `actions[].idempotent`, e.g. an association create that "has no effect" when
 * repeated). `write` is what the service said of the action; without it, the name rule decides. A write the
 * service said nothing of is never safe: repeating it could apply it twice.
 */
export function isSafeToRepeat(
  entity: string,
  action: string,
  write = isWriteAction(entity, action),
  idempotent = false,
): boolean {
  return !write || idempotent;
}
