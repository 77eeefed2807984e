/**
 * JSONata's built-in functions (jsonata 2.x) and this engine's own ($csv). A step id, loop variable or
 * set/assign name with one of these names would shadow the function inside expressions, so compile/
 * refuses them. test/expr checks this list against the library itself and the compiled built-ins, so an
 * upgrade that adds a function fails loudly.
 */
const BUILTINS = [
  'sum',
  'count',
  'max',
  'min',
  'average',
  'string',
  'substring',
  'substringBefore',
  'substringAfter',
  'lowercase',
  'uppercase',
  'length',
  'trim',
  'pad',
  'match',
  'contains',
  'replace',
  'split',
  'join',
  'formatNumber',
  'formatBase',
  'formatInteger',
  'parseInteger',
  'number',
  'floor',
  'ceil',
  'round',
  'abs',
  'sqrt',
  'power',
  'random',
  'boolean',
  'not',
  'map',
  'zip',
  'filter',
  'single',
  'reduce',
  'sift',
  'keys',
  'lookup',
  'append',
  'exists',
  'spread',
  'merge',
  'reverse',
  'each',
  'error',
  'assert',
  'type',
  'sort',
  'shuffle',
  'distinct',
  'base64encode',
  'base64decode',
  'encodeUrlComponent',
  'encodeUrl',
  'decodeUrlComponent',
  'decodeUrl',
  'eval',
  'toMillis',
  'fromMillis',
  'clone',
  'now',
  'millis',
  // This engine's own (functions/csv.ts).
  'csv',
] as const;

const BUILTIN_SET: ReadonlySet<string> = new Set(BUILTINS);

/** Names (without $) of JSONata's built-in functions. */
export function listBuiltins(): readonly string[] {
  return BUILTINS;
}

/** True when `name` (without $) is a JSONata built-in function. */
export function isBuiltin(name: string): boolean {
  return BUILTIN_SET.has(name);
}
