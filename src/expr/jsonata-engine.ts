/**
 * jsonata itself: the one parser of expressions, and the engine for what the compiler does not take.
 * Loaded on the first expression (a command that parses none never loads it). Every expression jsonata
 * evaluates gets this engine's extensions ($csv, UTF-8 base64) and a guard: jsonata calls it before every
 * node, and it stops the evaluation past its deadline (D1012) or past MAX_DEPTH nested nodes (D1011),
 * where jsonata alone would run forever or until the process runs out of memory.
 */
import { createRequire } from 'node:module';
import type jsonataType from 'jsonata';
import { EXTENSIONS } from './functions/registry.js';
import { JSONATA_NATIVE_NAMES, setJsonataNatives, type JsonataNative } from './functions/jsonata-natives.js';
import { ExprError } from './runtime/errors.js';
import { checkDeadline, randomOf } from './runtime/guard.js';
import { shuffle } from './functions/objects.js';
import type { EvalLimits } from './types.js';

type Jsonata = typeof jsonataType;
export type JsonataExpression = jsonataType.Expression;

let loaded: Jsonata | undefined;

function jsonata(): Jsonata {
  loaded ??= createRequire(import.meta.url)('jsonata') as Jsonata;
  return loaded;
}

/** Nested nodes jsonata may evaluate at once (its async evaluation does not use the JS stack, only memory). */
export const MAX_DEPTH = 20000;

/** Where the guard finds an evaluation's limits: a binding no expression can name ($ names are words). */
const LIMITS_BINDING = '\u0000limits';
const ENTRY_HOOK = Symbol.for('jsonata.__evaluate_entry');
const CHECK_EVERY = 256;

/** Parses `source` (throws jsonata's syntax error object). */
export function parseJsonata(source: string): JsonataExpression {
  return jsonata()(source);
}

const prepared = new WeakSet<JsonataExpression>();

/** Evaluates with jsonata, bounded by `limits`; `input` is the context value (`$`). */
export async function evaluateWithJsonata(
  expr: JsonataExpression,
  input: unknown,
  bindings: Readonly<Record<string, unknown>>,
  limits: EvalLimits | undefined,
): Promise<unknown> {
  if (!prepared.has(expr)) {
    for (const ext of EXTENSIONS)
      expr.registerFunction(ext.name, ext.impl as (...a: unknown[]) => unknown, ext.signature);
    // The run's clock instead of jsonata's own (house rule 5), as compiled code answers them.
    expr.registerFunction('now', jsonataNow, '<s?s?:s>');
    expr.registerFunction('millis', jsonataMillis, '<:n>');
    // The run's chance too: the step visit's seeded source, which a resume replays.
    expr.registerFunction('random', jsonataRandom, '<:n>');
    expr.registerFunction('shuffle', jsonataShuffle, '<a:a>');
    (expr.assign as (name: string | symbol, value: unknown) => void)(ENTRY_HOOK, guard);
    prepared.add(expr);
  }
  return expr.evaluate(input, { ...bindings, [LIMITS_BINDING]: limits });
}

interface GuardedFrame {
  depth: number;
  lookup(name: string): unknown;
  recipeGuard?: { limits: EvalLimits | undefined; calls: number };
}

/** jsonata's evaluate-entry hook: runs before every node jsonata evaluates. */
function guard(_expr: unknown, _input: unknown, environment: { base: GuardedFrame }): void {
  const base = environment.base;
  let state = base.recipeGuard;
  if (state === undefined) {
    state = { limits: base.lookup(LIMITS_BINDING) as EvalLimits | undefined, calls: 0 };
    base.recipeGuard = state;
  }
  if (base.depth > MAX_DEPTH) throw new ExprError('D1011', { value: MAX_DEPTH });
  if (++state.calls % CHECK_EVERY === 0) checkDeadline(state.limits);
}

/** What jsonata passes a registered function as `this`. */
interface Focus {
  readonly environment: { lookup(name: string): unknown; readonly timestamp?: Date | null };
}

function focusLimits(focus: Focus): EvalLimits | undefined {
  return focus.environment.lookup(LIMITS_BINDING) as EvalLimits | undefined;
}

/** The evaluation's timestamp: the run's (from the limits binding), else jsonata's own for the evaluation. */
function focusTimestamp(focus: Focus): number {
  return focusLimits(focus)?.reads?.clock() ?? focus.environment.timestamp?.getTime() ?? Date.now();
}

function jsonataRandom(this: Focus): number {
  return randomOf(focusLimits(this));
}

function jsonataShuffle(this: Focus, arr: readonly unknown[] | undefined): unknown {
  const limits = focusLimits(this);
  return shuffle(arr, () => randomOf(limits));
}

/** `$now(picture?, timezone?)` on the evaluation's timestamp, formatted by jsonata's own $fromMillis. */
function jsonataNow(this: Focus, picture?: string, timezone?: string): unknown {
  const fromMillis = this.environment.lookup('fromMillis') as JsonataNative;
  return fromMillis.implementation.call(this, focusTimestamp(this), picture, timezone);
}

function jsonataMillis(this: Focus): number {
  return focusTimestamp(this);
}

/** Loads jsonata's implementations of the built-ins compiled code hands to it (picture strings). */
export async function loadJsonataNatives(): Promise<void> {
  const names = JSONATA_NATIVE_NAMES;
  const values = (await jsonata()(`[${names.map((n) => `$${n}`).join(', ')}]`).evaluate(undefined)) as JsonataNative[];
  setJsonataNatives(new Map(names.map((name, i) => [name, values[i] as JsonataNative])));
}
