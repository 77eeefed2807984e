/**
 * The compiler: jsonata's syntax tree → a tree of JS closures that compute exactly what jsonata's evaluator
 * computes, synchronously. Each node kind lives in its own file (paths, operators, calls); this one
 * dispatches, applies what jsonata's evaluate() does after every node (predicates, group-by, the
 * singleton rules) and resolves variables to frame slots.
 */
import { builtinFunction } from '../functions/registry.js';
import { makeRegexMatcher } from '../functions/regex.js';
import { JSONATA_NATIVE_NAMES } from '../functions/jsonata-natives.js';
import { lookup, normalize, OUTER, isSequence, sequenceOf, type Marked } from '../runtime/sequence.js';
import { pairsOf, type Node } from './ast.js';
import { compileApply, compileCall, compileLambda, compileTailCall } from './calls.js';
import {
  compileArray,
  compileBinary,
  compileBind,
  compileBlock,
  compileCondition,
  compileNegation,
} from './operators.js';
import {
  compileFilter,
  compileGroup,
  compilePath,
  evaluateDescendants,
  evaluateWildcard,
  isNamePath,
} from './paths.js';
import { analyzeScopes, UNSET, type Frame, type ScopeTree, type StaticScope } from './scopes.js';
import { generate } from './codegen.js';
import type { Compiler, Ev } from './types.js';

/** A compiled expression: run it inside withEvaluation (guard.ts). */
export interface Program {
  run(input: unknown, bindings: Readonly<Record<string, unknown>>): unknown;
  /** It may call jsonata's own implementation of a built-in (see jsonata-natives.ts), which must be loaded. */
  readonly usesJsonataNatives: boolean;
}

/**
 * Node kinds whose value is never a sequence: nothing to normalize after them. (A block, condition or
 * binding passes on a value that may be a sequence holding one sequence: jsonata unwraps it once more.)
 */
const NEVER_SEQUENCE = new Set(['string', 'number', 'value', 'regex', 'lambda', 'unary']);

function mayGiveSequence(node: Node): boolean {
  if (NEVER_SEQUENCE.has(node.type)) return false;
  // Operators give numbers, strings and booleans; only the range operator gives a sequence.
  if (node.type === 'binary') return node.value === '..';
  // A path of member names normalizes its own value (paths.ts, compileNamePath).
  if (node.type === 'path') return !isNamePath(node);
  return true;
}

const NATIVE_NAMES: ReadonlySet<string> = new Set<string>([...JSONATA_NATIVE_NAMES, 'now']);

/** Compiles a syntax tree the subset check accepted (subset.ts). */
export function compileProgram(ast: Node): Program {
  const compiler = new ProgramCompiler(analyzeScopes(ast));
  const root = compiler.generated(ast, compiler.tree.root);
  const names = compiler.tree.root.names;
  const rootBound = compiler.rootBound;
  const globals = names.map((name) => builtinFunction(name));
  return {
    usesJsonataNatives: compiler.usesNatives,
    run(input, bindings) {
      let context = input;
      if (Array.isArray(input) && !isSequence(input)) {
        // jsonata's outer wrapper: an array input is one context value.
        const wrapper: Marked = sequenceOf(input);
        wrapper[OUTER] = true;
        context = wrapper;
      }
      const v = new Array<unknown>(names.length);
      for (let i = 0; i < names.length; i++) {
        const name = names[i] as string;
        if (name === '$') v[i] = input;
        else if (Object.prototype.hasOwnProperty.call(bindings, name)) v[i] = bindings[name];
        else v[i] = rootBound.has(name) ? UNSET : globals[i];
      }
      return root(context, { v, p: null });
    },
  };
}

class ProgramCompiler implements Compiler {
  /** Names a top-level `:=` may bind: until it has run, a read goes on to the built-ins. */
  readonly rootBound: ReadonlySet<string>;
  usesNatives = false;

  constructor(readonly tree: ScopeTree) {
    this.rootBound = new Set(tree.root.names);
  }

  scopeOf(node: Node): StaticScope {
    const scope = this.tree.scopeOf.get(node);
    if (scope === undefined) throw new Error(`no scope for a ${node.type} node`);
    return scope;
  }

  node(node: Node, scope: StaticScope): Ev {
    const core = this.kind(node, scope);
    const filters = (node.predicate ?? []).map((stage) => compileFilter(this, stage, scope));
    const group = node.type !== 'path' && node.group ? compileGroup(this, node.group, scope) : undefined;
    const keep = node.keepArray === true;
    if (filters.length === 0 && !group && !keep && !mayGiveSequence(node)) return core;
    if (filters.length === 0 && !group) return (input, frame) => normalize(core(input, frame), keep);
    return (input, frame) => {
      let result = core(input, frame);
      for (const filter of filters) result = filter(result, frame);
      if (group) result = group(result, frame);
      return normalize(result, keep);
    };
  }

  private kind(node: Node, scope: StaticScope): Ev {
    switch (node.type) {
      case 'path':
        return compilePath(this, node, scope);
      case 'binary':
        return compileBinary(this, node, scope);
      case 'unary':
        if (node.value === '-') return compileNegation(this, node, scope);
        if (node.value === '[') return compileArray(this, node, scope);
        return compileGroup(this, { lhs: pairsOf(node), position: node.position }, scope);
      case 'name': {
        const name = String(node.value);
        return (input) => lookup(input, name);
      }
      case 'string':
      case 'number':
      case 'value': {
        const value = node.value;
        return () => value;
      }
      case 'wildcard':
        return (input) => evaluateWildcard(input);
      case 'descendant':
        return (input) => evaluateDescendants(input);
      case 'condition':
        return compileCondition(this, node, scope);
      case 'block':
        return compileBlock(this, node, scope);
      case 'bind':
        return compileBind(this, node, scope);
      case 'regex': {
        const re = node.value as RegExp;
        const position = node.position;
        return () => makeRegexMatcher(re, position);
      }
      case 'function':
        return compileCall(this, node, scope);
      case 'variable':
        return this.variable(String(node.value), scope);
      case 'lambda':
        return node.thunk === true ? compileTailCall(this, node, scope) : compileLambda(this, node, scope);
      case 'apply':
        return compileApply(this, node, scope);
      default:
        throw new Error(`cannot compile a ${node.type} node`);
    }
  }

  generated(node: Node, scope: StaticScope): Ev {
    return generate(this, node, scope);
  }

  /** Where `$name` may be bound, innermost first; the root is always last (see scopes.ts). */
  private candidates(name: string, scope: StaticScope): { hops: number; slot: number }[] {
    if (NATIVE_NAMES.has(name)) this.usesNatives = true;
    const candidates: { hops: number; slot: number }[] = [];
    let hops = 0;
    for (let s: StaticScope | null = scope; s !== null; s = s.parent) {
      if (!s.materialized) continue;
      const slot = s.slotOf(name);
      if (slot >= 0) candidates.push({ hops, slot });
      else if (s.kind === 'root') candidates.push({ hops, slot: s.declare(name) });
      hops++;
    }
    return candidates;
  }

  freeSlot(name: string, scope: StaticScope): { hops: number; slot: number } | undefined {
    const candidates = this.candidates(name, scope);
    // A name nothing in the expression binds: its root slot holds the binding (or the built-in).
    return candidates.length === 1 && !this.rootBound.has(name) ? candidates[0] : undefined;
  }

  variable(name: string, scope: StaticScope): Ev {
    if (name === '') return (input) => (Array.isArray(input) && (input as Marked)[OUTER] === true ? input[0] : input);
    const free = this.freeSlot(name, scope);
    if (free !== undefined) {
      const { hops: h, slot } = free;
      if (h === 0) return (_input, frame) => frame.v[slot];
      if (h === 1) return (_input, frame) => (frame.p as Frame).v[slot];
      return (_input, frame) => up(frame, h).v[slot];
    }
    const candidates = this.candidates(name, scope);
    const global = builtinFunction(name);
    return (_input, frame) => {
      for (const c of candidates) {
        const value = up(frame, c.hops).v[c.slot];
        if (value !== UNSET) return value;
      }
      return global;
    };
  }
}

function up(frame: Frame, hops: number): Frame {
  let f = frame;
  for (let i = 0; i < hops; i++) f = f.p as Frame;
  return f;
}
