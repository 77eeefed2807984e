import jsonata from 'jsonata';
import type { CompiledExpr, SourceLoc } from '../compile/plan.js';
import { analyzeAst, type MemberRef, type VariableRef } from './analyze.js';

/** A syntax error in an expression; `offset` is an index into the expression source. */
export interface ExprSyntaxError {
  readonly offset: number;
  readonly reason: string;
  readonly jsonataCode?: string;
}

/** A CompiledExpr backed by jsonata, with the positions of its free variables for compile/'s checks. */
export class JsonataExpr implements CompiledExpr {
  readonly variables: readonly string[];
  constructor(
    readonly source: string,
    readonly loc: SourceLoc,
    private readonly compiled: jsonata.Expression,
    /** Free variables with their offsets in `source`. */
    readonly refs: readonly VariableRef[],
    /** `$inputs.X` / `$secrets.X` reads with their offsets in `source`. */
    readonly members: readonly MemberRef[],
    /** Maps an offset in `source` to a file position. */
    readonly locateOffset: (offset: number) => SourceLoc,
  ) {
    this.variables = refs.map((r) => r.name);
    Object.freeze(this);
  }

  /** Evaluates with `bindings` as JSONata variables (keys without $); the input context is empty. */
  async evaluate(bindings: Readonly<Record<string, unknown>>): Promise<unknown> {
    return plain(await this.compiled.evaluate(undefined, { ...bindings }));
  }
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
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(source);
  } catch (err) {
    return { error: toSyntaxError(err, source) };
  }
  const { refs, members } = analyzeAst(compiled.ast());
  return { expr: new JsonataExpr(source, loc, compiled, refs, members, locateOffset) };
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
