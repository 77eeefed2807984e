import type { Diagnostic } from '../errors/index.js';
import type { Position, SourceLoc } from '../errors/location.js';

/**
 * The types expr/ hands to compile/ and run/. They live here, not in compile/plan.ts, so the dependency
 * runs one way: compile/ uses expr/ (plan.ts re-exports them), expr/ never imports compile/.
 */

/** A place in a recipe file and a 1-based line and column: the one location type, from errors/. */
export type { Position, SourceLoc } from '../errors/location.js';

/**
 * Bounds of one evaluation. A compiled expression runs synchronously, so no timer can stop it: it checks
 * `now()` against `deadline` itself (every few thousand loop turns and calls), and jsonata checks it at
 * every node it evaluates. `timeoutMs` and `source` say which bound it was, for the error.
 */
export interface EvalLimits {
  readonly deadline: number;
  readonly now: () => number;
  readonly timeoutMs: number;
  /** `step`: the step's timeout_ms; `recipe`: the recipe's expression_timeout_ms. */
  readonly source: 'step' | 'recipe';
  /**
   * What `$now()`/`$millis()` and `$random()`/`$shuffle()` read in this evaluation: the step visit's clock and
   * source of chance, which the run journals and a resume replays (house rule 5). Without it, the wall clock
   * at the evaluation's first call and Math.random.
   */
  readonly reads?: VisitReads;
}

/**
 * A step visit's clock and chance. `clock()` answers the same reading for the whole visit, asked (and journaled)
 * only when an expression first calls for it; `random()` draws from the visit's seeded source.
 */
export interface VisitReads {
  clock(): number;
  random(): number;
}

/** A JSONata expression compiled once by expr/; run/ evaluates it through expr/'s evalValue. */
export interface CompiledExpr {
  /** The expression text between `${` and `}`. */
  readonly source: string;
  readonly loc: SourceLoc;
  /** Variable names (without $) the expression reads, for the static reference checks. */
  readonly variables: readonly string[];
  /**
   * The only binding names an evaluation can read (analyze.ts `reads`), so a caller may pass just those;
   * undefined: it may read any (`$eval`), pass them all.
   */
  readonly reads?: readonly string[] | undefined;
  evaluate(bindings: Readonly<Record<string, unknown>>, limits?: EvalLimits): Promise<unknown>;
  /** The value when it can be had synchronously, else LATER (then call evaluate). */
  evaluateNow(bindings: Readonly<Record<string, unknown>>, limits?: EvalLimits): unknown;
}

/**
 * What a synchronous evaluation answers when only the asynchronous one can (see CompiledExpr.evaluateNow):
 * never a value an expression gives.
 */
export const LATER: unique symbol = Symbol('evaluate later');

/**
 * A value as written in YAML after `${ }` analysis:
 * - literal: no expression anywhere inside (also `$${` escapes, already unescaped);
 * - expr: the scalar is exactly one `${ ... }`: evaluates to the expression's typed value;
 * - template: text around one or more `${ ... }`: parts are stringified and joined;
 * - object / array: a container with expressions somewhere inside, evaluated member by member.
 */
export type Value =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'expr'; readonly expr: CompiledExpr }
  | { readonly kind: 'template'; readonly parts: readonly (string | CompiledExpr)[] }
  | { readonly kind: 'object'; readonly entries: Readonly<Record<string, Value>> }
  | { readonly kind: 'array'; readonly items: readonly Value[] };

/**
 * Where a YAML value came from, so expression problems can be reported inside the file:
 * `locate(pointer, offset)` gives the position of character `offset` of the string scalar at `pointer`
 * (or of the node itself without an offset). src/source's Locator provides it; without one, every
 * position is `fallback`.
 */
export interface ValueSite {
  readonly file: string;
  readonly pointer: string;
  readonly locate?: (pointer: string, offset?: number) => Position | undefined;
  readonly fallback?: Position;
}

export type { Diagnostic };
