/** Actions that only read. Anything else is treated as a write (unknown actions included: the safe side). */
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

/** True when entity.action may change data on the connected service (create, update, delete, ...). */
export function isWriteAction(entity: string, action: string): boolean {
  void entity;
  return !READ_ACTIONS.has(action);
}

/**
 * True when repeating the call cannot change the outcome: reads, and the writes the spec calls idempotent
 * (associations create: "repeating it has no effect"; associations delete removes whatever is there).
 */
export function isSafeToRepeat(entity: string, action: string): boolean {
  if (!isWriteAction(entity, action)) return true;
  return entity === 'associations' && (action === 'create' || action === 'delete');
}
