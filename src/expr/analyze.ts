import { isBuiltin } from './builtins.js';

/** A `$name` read by an expression; `offset` is where the `$` is in the expression source. */
export interface VariableRef {
  readonly name: string;
  readonly offset: number;
}

/** A `$inputs.NAME` or `$secrets.NAME` read; `offset` is where NAME starts in the expression source. */
export interface MemberRef {
  readonly root: string;
  readonly member: string;
  readonly offset: number;
}

export interface ExprAnalysis {
  /** Free variables, first occurrence of each name, in source order. */
  readonly refs: readonly VariableRef[];
  readonly members: readonly MemberRef[];
  /**
   * Every name a `variable` node holds (bound or free, built-ins too: a binding named like a built-in shadows
   * it), so an evaluation needs only these bindings; undefined when `$eval` may read any name at run time.
   */
  readonly reads: readonly string[] | undefined;
}

interface AstNode {
  type?: string;
  value?: unknown;
  position?: number;
  [key: string]: unknown;
}

/**
 * Free variables of a JSONata AST: every `variable` node, minus names the expression binds itself
 * (`:=`, lambda parameters, `@$x` and `#$i`), minus built-ins and the context variables `$` and `$$`.
 * An approximation (binding scopes are not tracked), which errs on the side of not reporting.
 */
export function analyzeAst(ast: unknown): ExprAnalysis {
  const seen: VariableRef[] = [];
  const bound = new Set<string>();
  const members: MemberRef[] = [];
  const reads = new Set<string>();
  walk(ast, (node) => {
    if (node.type === 'variable' && typeof node.value === 'string') {
      seen.push({ name: node.value, offset: startOf(node, node.value.length + 1) });
      reads.add(node.value);
    }
    if (node.type === 'bind') {
      const lhs = node.lhs as AstNode | undefined;
      if (lhs && typeof lhs.value === 'string') bound.add(lhs.value);
    }
    if (node.type === 'lambda' && Array.isArray(node.arguments)) {
      for (const arg of node.arguments as AstNode[]) if (typeof arg.value === 'string') bound.add(arg.value);
    }
    if (typeof node.focus === 'string') bound.add(node.focus);
    if (typeof node.index === 'string') bound.add(node.index);
    if (node.type === 'path' && Array.isArray(node.steps)) {
      const [first, second] = node.steps as AstNode[];
      if (
        first?.type === 'variable' &&
        second?.type === 'name' &&
        typeof first.value === 'string' &&
        typeof second.value === 'string'
      ) {
        members.push({ root: first.value, member: second.value, offset: startOf(second, second.value.length) });
      }
    }
  });
  const refs: VariableRef[] = [];
  const names = new Set<string>();
  for (const ref of seen) {
    if (ref.name === '' || ref.name === '$' || bound.has(ref.name) || isBuiltin(ref.name) || names.has(ref.name))
      continue;
    names.add(ref.name);
    refs.push(ref);
  }
  return {
    refs,
    members: members.filter((m) => !bound.has(m.root)),
    reads: reads.has('eval') ? undefined : [...reads].filter((n) => n !== '' && n !== '$'),
  };
}

/** jsonata records the offset just after a token; this is where the token starts. */
function startOf(node: AstNode, length: number): number {
  return Math.max(0, (node.position ?? length) - length);
}

function walk(value: unknown, visit: (node: AstNode) => void, visited = new Set<object>()): void {
  if (value === null || typeof value !== 'object' || visited.has(value)) return;
  // The parent operator (%) links nodes to shared slots; never walk an object twice.
  visited.add(value);
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit, visited);
    return;
  }
  const node = value as AstNode;
  if (typeof node.type === 'string') visit(node);
  for (const key of Object.keys(node)) {
    if (key === 'value' && node.type !== 'regex') {
      // `value` holds a literal or an operator for most nodes, but a sub-expression for some (e.g. condition parts).
      if (node.value !== null && typeof node.value === 'object') walk(node.value, visit, visited);
      continue;
    }
    walk(node[key], visit, visited);
  }
}
