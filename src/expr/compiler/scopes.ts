import type { Node } from './ast.js';

/**
 * jsonata's variable frames, resolved at compile time. jsonata creates a frame for the evaluation (the
 * bindings), for every block `( ... )` and for every lambda call, and `:=` binds in the frame it runs in;
 * a read walks the frames outwards. Here each block and lambda is a static scope with a slot per name it
 * may bind; a scope that binds nothing creates no frame at run time. Whether a `:=` has run is only known
 * at run time (it may sit in a condition), so a slot starts UNSET and a read goes on outwards past it.
 */
export class StaticScope {
  /** Names with a slot in this scope's frame, in slot order. */
  readonly names: string[] = [];

  constructor(
    readonly kind: 'root' | 'block' | 'lambda',
    readonly parent: StaticScope | null,
  ) {}

  /** Whether this scope has a frame at run time (the root always has one: it holds the bindings). */
  get materialized(): boolean {
    return this.kind === 'root' || this.names.length > 0;
  }

  slotOf(name: string): number {
    return this.names.indexOf(name);
  }

  /** The slot of `name`, created when missing. */
  declare(name: string): number {
    const i = this.names.indexOf(name);
    if (i >= 0) return i;
    this.names.push(name);
    return this.names.length - 1;
  }
}

/** Marks a slot whose `:=` has not run yet (distinct from a binding to undefined, which stops a lookup). */
export const UNSET: unique symbol = Symbol('unset');

/** A frame at run time: the slots of one static scope, and the frame it was created in. */
export interface Frame {
  readonly v: unknown[];
  readonly p: Frame | null;
}

/** The static scopes of an expression: the root, and the scope each block and (real) lambda node opens. */
export interface ScopeTree {
  readonly root: StaticScope;
  readonly scopeOf: ReadonlyMap<Node, StaticScope>;
}

export function analyzeScopes(ast: Node): ScopeTree {
  const root = new StaticScope('root', null);
  const scopeOf = new Map<Node, StaticScope>();
  const visit = (node: Node | undefined, scope: StaticScope): void => {
    if (node === undefined) return;
    let inner = scope;
    if (node.type === 'block') {
      inner = new StaticScope('block', scope);
      scopeOf.set(node, inner);
    } else if (node.type === 'lambda' && node.thunk !== true) {
      inner = new StaticScope('lambda', scope);
      for (const arg of node.arguments ?? []) inner.declare(String(arg.value));
      scopeOf.set(node, inner);
    } else if (node.type === 'bind') {
      scope.declare(String((node.lhs as Node).value));
    }
    for (const stage of [...(node.predicate ?? []), ...(node.stages ?? [])]) visit(stage.expr, scope);
    for (const [k, v] of node.group?.lhs ?? []) {
      visit(k, scope);
      visit(v, scope);
    }
    for (const child of childrenOf(node)) visit(child, inner);
  };
  visit(ast, root);
  return { root, scopeOf };
}

/** The sub-expressions of a node (not its predicates, stages or group, which run in the node's own scope). */
export function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  const add = (n: Node | undefined): void => {
    if (n !== undefined) out.push(n);
  };
  switch (node.type) {
    case 'binary':
    case 'apply':
      add(node.lhs as Node);
      add(node.rhs);
      break;
    case 'bind':
      add(node.rhs);
      break;
    case 'unary':
      if (node.value === '-') add(node.expression);
      else if (node.value === '[') for (const e of node.expressions ?? []) add(e);
      else if (node.value === '{')
        for (const [k, v] of node.lhs as readonly (readonly [Node, Node])[]) {
          add(k);
          add(v);
        }
      break;
    case 'path':
      for (const s of node.steps ?? []) add(s);
      break;
    case 'sort':
      for (const t of node.terms ?? []) add(t.expression);
      break;
    case 'condition':
      add(node.condition);
      add(node.then);
      add(node.else);
      break;
    case 'block':
      for (const e of node.expressions ?? []) add(e);
      break;
    case 'function':
      add(node.procedure);
      for (const a of node.arguments ?? []) add(a);
      break;
    case 'lambda':
      add(node.body);
      break;
  }
  return out;
}
