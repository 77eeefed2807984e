/**
 * JS source for the hot parts of a compiled expression (a path step's per-item body, a predicate, a lambda
 * body, the root): literals, variables, member chains, operators, conditions, blocks without bindings,
 * one-argument calls and object constructors with constant keys become one JS function per such part,
 * whose calls V8 sees one by one (and inlines); every other node is its closure from the compiler, called
 * from the generated code. The generated code computes exactly what those closures compute (the same
 * helpers, codegen-helpers.ts); the differential tests hold both to jsonata.
 *
 * No text of the expression is pasted into the source: keys and strings go in as JSON string literals,
 * numbers as number literals, everything else (closures, name lists, call sites) as constants K[i].
 */
import { HELPERS } from './codegen-helpers.js';
import type { Node } from './ast.js';
import { isNamePath, namePathParts } from './paths.js';
import type { StaticScope } from './scopes.js';
import type { Compiler, Ev } from './types.js';

const BINARY_HELPERS: Readonly<Record<string, string>> = {
  '+': 'add',
  '-': 'sub',
  '*': 'mul',
  '/': 'div',
  '%': 'mod',
  '&': 'cat',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
  '=': 'eq',
  '!=': 'ne',
  in: 'in',
};

/** `node` as one generated function, or its closure when nothing in it is worth generating. */
export function generate(c: Compiler, node: Node, scope: StaticScope): Ev {
  const g = new Generator(c);
  const body = g.expr(node, scope);
  if (g.generatedNodes === 0) return c.node(node, scope);
  const temps = g.temps > 0 ? `let ${Array.from({ length: g.temps }, (_, i) => `t${i}`).join(', ')};` : '';
  const source = `'use strict'; return function generated(input, frame) { ${temps} return ${body}; };`;
  // The source is built from the syntax tree only (see above), never from the expression's text.
  const make = new Function('H', 'K', source) as (h: typeof HELPERS, k: unknown[]) => Ev;
  return make(HELPERS, g.constants);
}

class Generator {
  readonly constants: unknown[] = [];
  temps = 0;
  generatedNodes = 0;

  constructor(private readonly c: Compiler) {}

  private constant(value: unknown): string {
    this.constants.push(value);
    return `K[${this.constants.length - 1}]`;
  }

  private temp(): string {
    return `t${this.temps++}`;
  }

  /** The node's closure, called from generated code. */
  private closure(node: Node, scope: StaticScope): string {
    return `${this.constant(this.c.node(node, scope))}(input, frame)`;
  }

  expr(node: Node, scope: StaticScope): string {
    if ((node.predicate?.length ?? 0) > 0 || node.group !== undefined || node.keepArray === true)
      return this.closure(node, scope);
    const generated = this.kind(node, scope);
    if (generated === undefined) return this.closure(node, scope);
    this.generatedNodes++;
    return generated;
  }

  private kind(node: Node, scope: StaticScope): string | undefined {
    const position = node.position === undefined ? 'undefined' : String(node.position);
    switch (node.type) {
      case 'string':
      case 'number':
      case 'value':
        return literal(node.value);
      case 'variable': {
        const name = String(node.value);
        // The context can be a sequence (a path's first array constructor sees the path's input sequence):
        // jsonata normalizes it as it does every node's value.
        if (name === '') return 'H.norm(H.ctx(input))';
        const read = this.slotRead(name, scope);
        return read === undefined ? undefined : this.norm(read);
      }
      case 'path': {
        if (!isNamePath(node)) return undefined;
        const parts = namePathParts(this.c, node, scope);
        const from =
          parts.variable === undefined
            ? 'input'
            : (this.slotRead(parts.variable, scope) ?? `${this.constant(parts.start)}(input, frame)`);
        return this.memberChain(from, parts.names, `${this.constant(parts.generic)}(input, frame)`);
      }
      case 'binary': {
        const op = String(node.value);
        const helper = BINARY_HELPERS[op];
        if (helper === undefined) return undefined;
        const l = this.expr(node.lhs as Node, scope);
        const r = this.expr(node.rhs as Node, scope);
        const a = this.temp();
        const b = this.temp();
        const slow = `H.${helper}(${a}, ${b}, ${position})`;
        // The common case inline (what the helper does first), the helper for the rest and the errors.
        const both = (type: string): string => `typeof ${a} === '${type}' && typeof ${b} === '${type}'`;
        const finite = `${both('number')} && ${a} - ${a} === 0 && ${b} - ${b} === 0`;
        let fast: string | undefined;
        if (['+', '-', '*', '/', '%'].includes(op)) fast = `${finite} ? ${a} ${op} ${b}`;
        else if (op === '&') fast = `${both('string')} ? ${a} + ${b}`;
        else if (['<', '<=', '>', '>='].includes(op))
          fast = `(${both('number')}) || (${both('string')}) ? ${a} ${op} ${b}`;
        if (fast === undefined) return `(${a} = ${l}, ${b} = ${r}, ${slow})`;
        return `(${a} = ${l}, ${b} = ${r}, ${fast} : ${slow})`;
      }
      case 'unary':
        if (node.value === '-') return `H.neg(${this.expr(node.expression as Node, scope)}, ${position})`;
        if (node.value === '{') return this.object(node, scope);
        return undefined;
      case 'condition': {
        const test = this.expr(node.condition as Node, scope);
        const then = this.expr(node.then as Node, scope);
        const otherwise = node.else ? this.expr(node.else, scope) : 'undefined';
        return this.norm(`H.bool(${test}) ? ${then} : ${otherwise}`);
      }
      case 'block': {
        if (this.c.scopeOf(node).materialized) return undefined;
        const inner = this.c.scopeOf(node);
        const parts = (node.expressions ?? []).map((e) => this.expr(e, inner));
        return parts.length === 0 ? 'undefined' : this.norm(`(${parts.join(', ')})`);
      }
      case 'function': {
        const procNode = node.procedure as Node;
        const args = node.arguments ?? [];
        if (procNode.type !== 'variable' || args.length !== 1) return undefined;
        const at = this.constant({ name: procNode.value, position: node.position });
        const proc = this.expr(procNode, scope);
        const arg = this.expr(args[0] as Node, scope);
        return this.norm(`H.call1(${proc}, ${arg}, input, ${at})`);
      }
      default:
        return undefined;
    }
  }

  /**
   * A chain of member names from `from`, as paths.ts's readNames reads it: an own member of an object
   * that is not a function jsonata made; undefined on anything else; `general` (the path's closure) at
   * the first array on the way, unless it is the last member and not a sequence.
   */
  private memberChain(from: string, names: readonly string[], general: string): string {
    const t = this.temp();
    const step = (i: number): string => {
      const name = JSON.stringify(names[i]);
      const get = `(${t} = H.hop.call(${t}, ${name}) && ${t}._jsonata_lambda !== true && ${t}._jsonata_function !== true ? ${t}[${name}] : undefined)`;
      const last = i === names.length - 1;
      const onArray = last ? `(H.isSeq(${t}) ? ${general} : ${t})` : general;
      const rest = last ? t : `(${t} === null || typeof ${t} !== 'object' ? undefined : ${step(i + 1)})`;
      return `(${get} === undefined ? undefined : H.isArray(${t}) ? ${onArray} : ${rest})`;
    };
    return `(${t} = ${from}, H.isArray(${t}) ? ${general} : ${t} === null || typeof ${t} !== 'object' ? undefined : ${step(0)})`;
  }

  /** `value` normalized (a one-item sequence unwrapped), with the test inline. */
  private norm(value: string): string {
    const t = this.temp();
    return `(${t} = ${value}, H.isArray(${t}) ? H.norm(${t}) : ${t})`;
  }

  /** A read of `$name` straight from its slot, when nothing in the expression binds the name. */
  private slotRead(name: string, scope: StaticScope): string | undefined {
    const slot = this.c.freeSlot(name, scope);
    if (slot === undefined) return undefined;
    return `frame${'.p'.repeat(slot.hops)}.v[${slot.slot}]`;
  }

  /** An object constructor with constant, distinct keys on one context value; an array context: its closure. */
  private object(node: Node, scope: StaticScope): string | undefined {
    const pairs = (node.lhs ?? []) as readonly (readonly [Node, Node])[];
    const keys = pairs.map(([k]) => (k.type === 'string' && !k.predicate && !k.group ? String(k.value) : undefined));
    if (keys.some((k) => k === undefined || k === '_jsonata_lambda' || k === '_jsonata_function')) return undefined;
    if (new Set(keys).size !== keys.length) return undefined;
    // jsonata builds its result in object key order: integer-like keys first.
    const holder: Record<string, number> = {};
    keys.forEach((k, i) => Object.defineProperty(holder, k as string, { value: i, enumerable: true }));
    const order = Object.keys(holder).map((k) => holder[k] as number);
    const general = this.closure(node, scope);
    if (order.length === 0) return `(H.isArray(input) ? ${general} : {})`;
    // The values first (in jsonata's order), then the object: as one literal when none is undefined (an
    // object made whole is cheaper than one grown member by member), else member by member without them.
    const o = this.temp();
    const values = order.map((i) => ({ key: keys[i] as string, temp: this.temp(), i }));
    const evaluate = values.map(
      ({ temp, i }) => `(${temp} = ${this.expr((pairs[i] as readonly [Node, Node])[1], scope)})`,
    );
    const allDefined = values.map(({ temp }) => `${temp} !== undefined`).join(' && ');
    const hasProto = values.some(({ key }) => key === '__proto__');
    const nestedValue = (temp: string): string => `(H.isArray(${temp}) ? H.nested(${temp}) : ${temp})`;
    const whole = hasProto
      ? undefined
      : `{ ${values.map(({ key, temp }) => `${JSON.stringify(key)}: ${nestedValue(temp)}`).join(', ')} }`;
    const stores = values.map(({ key, temp }) => {
      const store =
        key === '__proto__'
          ? `H.setMember(${o}, ${JSON.stringify(key)}, ${nestedValue(temp)})`
          : `${o}[${JSON.stringify(key)}] = ${nestedValue(temp)}`;
      return `(${temp} !== undefined && (${store}))`;
    });
    const partial = `(${o} = {}, ${stores.join(', ')}, ${o})`;
    const build = whole === undefined ? partial : `(${allDefined} ? ${whole} : ${partial})`;
    return `(H.isArray(input) ? ${general} : (${evaluate.join(', ')}, ${build}))`;
  }
}

function literal(value: unknown): string {
  if (typeof value === 'number' && Object.is(value, -0)) return '(-0)';
  return JSON.stringify(value) ?? 'undefined';
}
