import { analyzeAst, type MemberRef, type VariableRef } from './analyze.js';
import { findHabits, type ExprHabit } from './habits.js';
import type { Node } from './compiler/ast.js';
import { compileProgram, type Program } from './compiler/compile.js';
import { unsupportedReason } from './compiler/subset.js';
import { jsonataNativesLoaded } from './functions/jsonata-natives.js';
import { evaluateWithJsonata, loadJsonataNatives, parseJsonata, type JsonataExpression } from './jsonata-engine.js';
import { BailOut, ExprError } from './runtime/errors.js';
import { withEvaluation } from './runtime/guard.js';
import { LATER, type CompiledExpr, type EvalLimits, type SourceLoc } from './types.js';
// Loaded for its effect: regexes fall back to a linear-time engine instead of backtracking for ever.
import './linear-regex.js';

/** A syntax error in an expression; `offset` is an index into the expression source. */
export interface ExprSyntaxError {
  readonly offset: number;
  readonly reason: string;
  readonly jsonataCode?: string;
}

/** Which engine runs an expression: the compiler's closures, or jsonata (with why). */
export type Engine = { readonly kind: 'compiled' } | { readonly kind: 'jsonata'; readonly reason: string };

/**
 * An expression parsed by jsonata and, when it is inside the compiled subset, compiled to JS. Evaluation
 * runs the compiled form; jsonata evaluates what the compiler does not take, and any evaluation the
 * compiled form hands back (a function value jsonata made, a host function answering a promise, a stack
 * exhausted by deep recursion). Both give the same values and the same error codes.
 */
export class JsonataExpr implements CompiledExpr {
  readonly variables: readonly string[];
  readonly engine: Engine;
  /** How often a compiled evaluation was handed back to jsonata, and the last reason (for debug logs). */
  readonly handedBack = { count: 0, reason: '' };
  /** The compiled form, made at the first evaluation (`recipe validate` never pays for it); null: it failed. */
  private readonly compiled: { program?: Program | null } = {};

  constructor(
    readonly source: string,
    readonly loc: SourceLoc,
    private readonly jsonata: JsonataExpression,
    /** Free variables with their offsets in `source`. */
    readonly refs: readonly VariableRef[],
    /** `$inputs.X` / `$secrets.X` reads with their offsets in `source`. */
    readonly members: readonly MemberRef[],
    /** Shapes that are valid JSONata but likely habits from other tools (compile/hints.ts reports them). */
    readonly habits: readonly ExprHabit[],
    /** Maps an offset in `source` to a file position. */
    readonly locateOffset: (offset: number) => SourceLoc,
    /** Every binding name an evaluation can read; undefined when it may read any (analyze.ts). */
    readonly reads: readonly string[] | undefined,
  ) {
    this.variables = refs.map((r) => r.name);
    const reason = unsupportedReason(jsonata.ast() as Node);
    this.engine = reason === undefined ? { kind: 'compiled' } : { kind: 'jsonata', reason };
    Object.freeze(this);
  }

  private program(): Program | undefined {
    if (this.engine.kind !== 'compiled' || this.compiled.program === null) return undefined;
    if (this.compiled.program === undefined) {
      try {
        this.compiled.program = compileProgram(this.jsonata.ast() as Node);
      } catch (err) {
        // A compiler bug must not fail a run: jsonata evaluates, and debug logs say why.
        this.compiled.program = null;
        this.handedBack.count++;
        this.handedBack.reason = `the compiler failed: ${(err as Error).message}`;
        return undefined;
      }
    }
    return this.compiled.program;
  }

  /** Evaluates with `bindings` as JSONata variables (keys without $); the input context is empty. */
  evaluate(bindings: Readonly<Record<string, unknown>>, limits?: EvalLimits): Promise<unknown> {
    return this.evaluateWith(undefined, bindings, limits);
  }

  /**
   * The compiled form's value, synchronously, or LATER when only evaluate() can answer: the expression is
   * outside the compiled subset, jsonata's natives are not loaded yet, or the compiled form hands back (then
   * evaluate() runs it once more and counts the hand-back). A loop's per-item expressions take this path, so
   * a step need not await them.
   */
  evaluateNow(bindings: Readonly<Record<string, unknown>>, limits?: EvalLimits): unknown {
    const program = this.program();
    if (program === undefined || (program.usesJsonataNatives && !jsonataNativesLoaded())) return LATER;
    try {
      return withEvaluation(limits, () => program.run(undefined, bindings));
    } catch (err) {
      if (err instanceof BailOut || isStackExhausted(err)) return LATER;
      throw err instanceof ExprError ? err.populate() : err;
    }
  }

  /** Evaluates against a context value `input` (`$`), as `recipe eval --input` does. */
  evaluateWith(input: unknown, bindings: Readonly<Record<string, unknown>>, limits?: EvalLimits): Promise<unknown> {
    const program = this.program();
    // The compiled form runs synchronously: no async function on the way.
    if (program !== undefined && (!program.usesJsonataNatives || jsonataNativesLoaded())) {
      try {
        return Promise.resolve(withEvaluation(limits, () => program.run(input, bindings)));
      } catch (err) {
        if (!this.handBack(err)) return Promise.reject(err instanceof ExprError ? err.populate() : err);
        return this.viaJsonata(input, bindings, limits);
      }
    }
    return this.slowly(program, input, bindings, limits);
  }

  /** The compiled form after loading jsonata's picture-string code, or jsonata itself. */
  private async slowly(
    program: Program | undefined,
    input: unknown,
    bindings: Readonly<Record<string, unknown>>,
    limits: EvalLimits | undefined,
  ): Promise<unknown> {
    if (program !== undefined) {
      await loadJsonataNatives();
      try {
        return withEvaluation(limits, () => program.run(input, bindings));
      } catch (err) {
        if (!this.handBack(err)) throw err instanceof ExprError ? err.populate() : err;
      }
    }
    return this.viaJsonata(input, bindings, limits);
  }

  /** True (and counted) when an error of the compiled form means jsonata must evaluate instead. */
  private handBack(err: unknown): boolean {
    if (!(err instanceof BailOut) && !isStackExhausted(err)) return false;
    this.handedBack.count++;
    this.handedBack.reason = err instanceof BailOut ? err.reason : 'the JS stack ran out (deep recursion)';
    return true;
  }

  private async viaJsonata(
    input: unknown,
    bindings: Readonly<Record<string, unknown>>,
    limits: EvalLimits | undefined,
  ): Promise<unknown> {
    return plain(await evaluateWithJsonata(this.jsonata, input, bindings, limits));
  }
}

/** A RangeError from exhausting the JS call stack (not one from building a too long string or array). */
export function isStackExhausted(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/**
 * jsonata marks the arrays it builds with extra own properties (`sequence`, `keepSingleton`, ...); the plan's
 * consumers get plain JSON-like values. Copies only what needs cleaning, so bound input data is not duplicated.
 */
export function plain(value: unknown): unknown {
  // A JSONata function value (e.g. bound by `set`) holds its environment, which can refer back to itself.
  if (value !== null && typeof value === 'object' && (value as { _jsonata_lambda?: unknown })._jsonata_lambda === true)
    return value;
  if (Array.isArray(value)) {
    let changed = Object.keys(value).length !== value.length;
    const items = value.map((item) => {
      const p = plain(item);
      if (p !== item) changed = true;
      return p;
    });
    return changed ? items : value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, member] of Object.entries(value)) {
      const p = plain(member);
      if (p !== member) {
        copy ??= { ...(value as Record<string, unknown>) };
        copy[key] = p;
      }
    }
    return copy ?? value;
  }
  return value;
}

/** Parses `source` once; gives the expression or its syntax error. */
export function parseExpr(
  source: string,
  loc: SourceLoc,
  locateOffset: (offset: number) => SourceLoc,
): { expr: JsonataExpr } | { error: ExprSyntaxError } {
  let parsed: JsonataExpression;
  try {
    parsed = parseJsonata(source);
  } catch (err) {
    return { error: toSyntaxError(err, source) };
  }
  const { refs, members, reads } = analyzeAst(parsed.ast());
  return {
    expr: new JsonataExpr(source, loc, parsed, refs, members, findHabits(parsed.ast()), locateOffset, reads),
  };
}

function toSyntaxError(err: unknown, source: string): ExprSyntaxError {
  const e = err as { message?: string; position?: number; token?: unknown; code?: string };
  const reason = typeof e.message === 'string' ? e.message : String(err);
  // jsonata reports the offset just after the offending token.
  const tokenLength = e.token === undefined || e.token === '(end)' ? 0 : String(e.token).length;
  const position = typeof e.position === 'number' ? e.position : source.length;
  const offset = Math.min(Math.max(0, position - tokenLength), source.length);
  return e.code === undefined ? { offset, reason } : { offset, reason, jsonataCode: e.code };
}
