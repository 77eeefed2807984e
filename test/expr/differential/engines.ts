/**
 * The two engines side by side: jsonata itself (with this engine's extensions registered, as the fallback
 * has them) and the compiled form, each reduced to an outcome that can be compared exactly: a canonical
 * text of the value (undefined and null apart, numbers exact, object keys in their order) or the error.
 */
import jsonata from 'jsonata';
import { type JsonataExpr, parseExpr } from '../../../src/expr/index.js';
import { plain } from '../../../src/expr/compiled-expr.js';
import { EXTENSIONS } from '../../../src/expr/functions/registry.js';

export type Outcome =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly position?: number };

const loc = { file: 'expr', line: 1, column: 1, pointer: '' };

/** jsonata's answer (the oracle). */
export async function viaJsonata(source: string, input: unknown, bindings: Record<string, unknown>): Promise<Outcome> {
  try {
    const expr = jsonata(source);
    for (const ext of EXTENSIONS)
      expr.registerFunction(ext.name, ext.impl as (...a: unknown[]) => unknown, ext.signature);
    return { ok: true, value: canonical(plain(await expr.evaluate(input, bindings))) };
  } catch (err) {
    return failure(err);
  }
}

/** The compiled form's answer; `handedBack` says it gave the evaluation to jsonata instead. */
export async function viaCompiled(
  source: string,
  input: unknown,
  bindings: Record<string, unknown>,
): Promise<{ outcome: Outcome; compiled: boolean; fallbackReason?: string; handedBack: boolean }> {
  const parsed = parseExpr(source, loc, () => loc);
  if ('error' in parsed) throw new Error(`syntax error in ${source}: ${parsed.error.reason}`);
  const expr = parsed.expr as JsonataExpr;
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: canonical(await expr.evaluateWith(input, bindings)) };
  } catch (err) {
    outcome = failure(err);
  }
  const handedBack = expr.handedBack.count > 0;
  return expr.engine.kind === 'compiled'
    ? { outcome, compiled: true, handedBack }
    : { outcome, compiled: false, fallbackReason: expr.engine.reason, handedBack };
}

function failure(err: unknown): Outcome {
  const e = err as { code?: unknown; message?: unknown; position?: unknown };
  const code = typeof e.code === 'string' ? e.code : 'none';
  const message = typeof e.message === 'string' ? e.message : String(err);
  return typeof e.position === 'number'
    ? { ok: false, code, message, position: e.position }
    : { ok: false, code, message };
}

/** A canonical text of a value: exact about undefined, -0, NaN, key order and functions. */
export function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'function') return 'function';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (v._jsonata_lambda === true || v._jsonata_function === true) return 'function';
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  }
  return String(value);
}

/**
 * Outcomes agree: same value, or the same error (code, message, position). One known difference: jsonata evaluates the members of an
 * array or object constructor (and the groups of a group-by) concurrently, so when several fail it reports
 * whichever failed first in its asynchronous schedule; the compiled form reports the first in order. For
 * such expressions two failures agree.
 */
export function sameOutcome(a: Outcome, b: Outcome, source: string): boolean {
  if (a.ok && b.ok) return a.value === b.value;
  if (!a.ok && !b.ok)
    return (a.code === b.code && a.message === b.message && a.position === b.position) || hasConcurrentMembers(source);
  return false;
}

function hasConcurrentMembers(source: string): boolean {
  let found = false;
  const visit = (node: unknown): void => {
    if (found || node === null || typeof node !== 'object') return;
    const n = node as { type?: string; value?: unknown; expressions?: unknown[]; group?: unknown };
    if (n.type === 'unary' && n.value === '{') found = true;
    if (n.type === 'unary' && n.value === '[' && (n.expressions?.length ?? 0) > 1) found = true;
    if (n.group !== undefined) found = true;
    for (const [key, child] of Object.entries(node)) if (key !== 'value' || typeof child === 'object') visit(child);
  };
  visit(jsonata(source).ast());
  return found;
}
