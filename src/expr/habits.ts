import { isBuiltin } from './builtins.js';

/**
 * Shapes in an expression that are valid JSONata but almost surely a habit from another tool, found in the
 * AST so strings and comments never match. compile/hints.ts turns them into W diagnostics; `recipe eval`
 * prints the same. Offsets are where the shape starts in the expression source.
 */
export type ExprHabit =
  /** `$$` anywhere, or `$` outside a path step, predicate, lambda or sort: a recipe expression has no input. */
  | { readonly kind: 'context'; readonly name: '$' | '$$'; readonly offset: number }
  /** `$steps.X.outputs…`, `steps.X.outputs…` or `$X.outputs…`: GitHub Actions' way to read a step's output. */
  | {
      readonly kind: 'step-output';
      readonly text: string;
      readonly step: string;
      readonly rest: readonly string[];
      /** Written `$X.outputs` (X may be a step id; the caller knows). */
      readonly direct: boolean;
      readonly offset: number;
    }
  /** `$name(...)` where `name` is no built-in: a misspelt function, or a variable holding a lambda. */
  | { readonly kind: 'call'; readonly name: string; readonly offset: number };

interface AstNode {
  type?: string;
  value?: unknown;
  position?: number;
  [key: string]: unknown;
}

/** Keys under which JSONata evaluates against a context value of its own, where `$` means something. */
const CONTEXT_KEYS = new Set(['predicate', 'stages', 'group', 'body', 'terms', 'expr']);

/** The habits found in a parsed expression's AST, in source order. */
export function findHabits(ast: unknown): ExprHabit[] {
  const out: ExprHabit[] = [];
  walk(ast, false, out, new Set());
  return out.sort((a, b) => a.offset - b.offset);
}

function walk(value: unknown, inContext: boolean, out: ExprHabit[], visited: Set<object>): void {
  if (value === null || typeof value !== 'object' || visited.has(value)) return;
  visited.add(value);
  if (Array.isArray(value)) {
    for (const item of value) walk(item, inContext, out, visited);
    return;
  }
  const node = value as AstNode;
  visit(node, inContext, out);
  for (const key of Object.keys(node)) {
    if (key === 'value' && (node.value === null || typeof node.value !== 'object' || node.type === 'regex')) continue;
    if (node.type === 'path' && key === 'steps' && Array.isArray(node.steps)) {
      // The first step is read against the outer context; every later one against the step before it.
      node.steps.forEach((step, i) => walk(step, inContext || i > 0, out, visited));
      continue;
    }
    walk(node[key], inContext || CONTEXT_KEYS.has(key), out, visited);
  }
}

function visit(node: AstNode, inContext: boolean, out: ExprHabit[]): void {
  if (node.type === 'variable' && node.value === '$') out.push({ kind: 'context', name: '$$', offset: start(node, 2) });
  else if (node.type === 'variable' && node.value === '' && !inContext)
    out.push({ kind: 'context', name: '$', offset: start(node, 1) });
  if (node.type === 'function' || node.type === 'partial') {
    const procedure = node.procedure as AstNode | undefined;
    const name = procedure?.type === 'variable' ? procedure.value : undefined;
    if (typeof name === 'string' && name !== '' && name !== '$' && !isBuiltin(name))
      out.push({ kind: 'call', name, offset: start(procedure as AstNode, name.length + 1) });
  }
  if (node.type === 'path' && Array.isArray(node.steps)) {
    const habit = stepOutput(node.steps as AstNode[]);
    if (habit) out.push(habit);
  }
}

/** `$steps.X.outputs…`, `steps.X.outputs…`, `$X.outputs…` at the start of a path. */
function stepOutput(steps: readonly AstNode[]): ExprHabit | undefined {
  const names: string[] = [];
  for (const s of steps) {
    if ((s.type !== 'name' && !(s.type === 'variable' && names.length === 0)) || typeof s.value !== 'string') break;
    if (s.stages !== undefined && names.length < 2) break;
    names.push(s.value);
  }
  const first = steps[0] as AstNode;
  const dollar = first.type === 'variable';
  const root = String(first.value);
  const offset = start(first, root.length + (dollar ? 1 : 0));
  const text = (rest: string[]) => `${dollar ? '$' : ''}${rest.join('.')}`;
  if (root === 'steps' && names.length >= 3 && names[2] === 'outputs') {
    return {
      kind: 'step-output',
      text: text(names),
      step: names[1] as string,
      rest: names.slice(3),
      direct: false,
      offset,
    };
  }
  if (dollar && root !== '' && root !== '$' && names.length >= 2 && names[1] === 'outputs') {
    return { kind: 'step-output', text: text(names), step: root, rest: names.slice(2), direct: true, offset };
  }
  return undefined;
}

/** jsonata records the offset just after a token; this is where the token starts. */
function start(node: AstNode, length: number): number {
  return Math.max(0, (node.position ?? length) - length);
}
