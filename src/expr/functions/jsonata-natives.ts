/**
 * jsonata's own implementations of the built-ins that are not ported (number and date pictures:
 * $formatNumber, $formatBase, $formatInteger, $parseInteger, and $fromMillis/$toMillis/$now with a
 * picture). They are synchronous; the jsonata engine loads them into this table before a compiled
 * expression that names one of them first runs (see jsonata-engine.ts).
 */
import { BailOut, ExprError, type ErrorFields } from '../runtime/errors.js';
import { evaluationTimestamp } from '../runtime/guard.js';

export interface JsonataNative {
  readonly implementation: (...args: unknown[]) => unknown;
}

/** The built-ins whose jsonata implementation compiled code may call. */
export const JSONATA_NATIVE_NAMES = [
  'formatNumber',
  'formatBase',
  'formatInteger',
  'parseInteger',
  'fromMillis',
  'toMillis',
] as const;

const natives = new Map<string, JsonataNative>();

/** Filled once by the jsonata engine. */
export function setJsonataNatives(table: ReadonlyMap<string, JsonataNative>): void {
  for (const [name, native] of table) natives.set(name, native);
}

export function jsonataNativesLoaded(): boolean {
  return natives.size > 0;
}

/** Calls jsonata's implementation of `name` with arguments already validated by the same signature. */
export function callJsonataNative(name: string, args: readonly unknown[]): unknown {
  const native = natives.get(name);
  if (native === undefined) throw new BailOut(`jsonata's $${name} is not loaded`);
  // parseDateTime reads the evaluation's timestamp from its environment (for the parts a picture leaves out).
  const focus = {
    createSequence: () => [],
    environment: { timestamp: new Date(evaluationTimestamp()) },
    input: undefined,
  };
  try {
    return native.implementation.apply(focus, args as unknown[]);
  } catch (err) {
    // jsonata throws plain objects ({code, value, ...}); as ExprErrors they get their message and marks.
    if (
      err instanceof Error ||
      err === null ||
      typeof err !== 'object' ||
      typeof (err as { code?: unknown }).code !== 'string'
    )
      throw err;
    const { code, ...fields } = err as { code: string } & ErrorFields;
    throw new ExprError(code, fields);
  }
}
