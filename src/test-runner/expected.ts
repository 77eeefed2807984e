import type { Value } from '../compile/plan.js';
import type { Diagnostic, SourceLoc } from '../errors/index.js';
import { compileValue, escapePointer } from '../expr/index.js';
import type { Locator } from '../source/index.js';

/**
 * An expected value as written in a test file, with where each part was written: scalars compare equal,
 * maps match the keys they give, lists match item by item, and a string with `${ }` is a predicate (a
 * boolean result is the verdict, any other result the expected value).
 */
export type Expected =
  | { readonly kind: 'literal'; readonly value: unknown; readonly at: SourceLoc }
  | { readonly kind: 'predicate'; readonly value: Value; readonly source: string; readonly at: SourceLoc }
  | { readonly kind: 'object'; readonly entries: Readonly<Record<string, Expected>>; readonly at: SourceLoc }
  | { readonly kind: 'array'; readonly items: readonly Expected[]; readonly at: SourceLoc };

/** Compiles the expected value at `pointer` of a test file; expression problems go to `diagnostics`. */
export function compileExpected(
  raw: unknown,
  pointer: string,
  file: string,
  locator: Locator,
  diagnostics: Diagnostic[],
): Expected {
  const at: SourceLoc = { file, ...locator.locate(pointer), pointer };
  if (Array.isArray(raw))
    return {
      kind: 'array',
      items: raw.map((item, i) => compileExpected(item, `${pointer}/${i}`, file, locator, diagnostics)),
      at,
    };
  if (raw !== null && typeof raw === 'object') {
    const entries: Record<string, Expected> = {};
    for (const [key, member] of Object.entries(raw))
      entries[key] = compileExpected(member, `${pointer}/${escapePointer(key)}`, file, locator, diagnostics);
    return { kind: 'object', entries, at };
  }
  if (typeof raw === 'string' && raw.includes('${')) {
    const compiled = compileValue(raw, { file, pointer, locate: (p, offset) => locator.locate(p, offset) });
    diagnostics.push(...compiled.diagnostics);
    if (compiled.value.kind === 'literal') return { kind: 'literal', value: compiled.value.value, at };
    return { kind: 'predicate', value: compiled.value, source: raw, at };
  }
  return { kind: 'literal', value: raw, at };
}

/** The plain value an Expected was written as (predicates as their source text), for snapshots and messages. */
export function writtenValue(e: Expected): unknown {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'predicate':
      return e.source;
    case 'object':
      return Object.fromEntries(Object.entries(e.entries).map(([k, v]) => [k, writtenValue(v)]));
    case 'array':
      return e.items.map(writtenValue);
  }
}
