import type { Node } from './ast.js';
import type { Frame, StaticScope } from './scopes.js';

/** A compiled node: its value for a context value (`input`, what `$` is) in a frame of variables. */
export type Ev = (input: unknown, frame: Frame) => unknown;

/** A compiled path step: the sequence it gives for the sequence before it. */
export type StepEv = (input: ArrayLike<unknown>, frame: Frame) => unknown;

/** What the per-kind compilers ask of the compiler. */
export interface Compiler {
  /** A node as jsonata's evaluate() gives it: the kind's value, then predicates, group and singleton rules. */
  node(node: Node, scope: StaticScope): Ev;
  /** A read of `$name` as seen from `scope`. */
  variable(name: string, scope: StaticScope): Ev;
  /** The scope a block or lambda node opens. */
  scopeOf(node: Node): StaticScope;
  /** `node` as generated code (codegen.ts), falling back to closures inside. */
  generated(node: Node, scope: StaticScope): Ev;
  /** The root slot of `$name` when nothing in the expression binds the name (hops: frames up to the root). */
  freeSlot(name: string, scope: StaticScope): { hops: number; slot: number } | undefined;
}
