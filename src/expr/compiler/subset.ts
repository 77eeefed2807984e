import type { Node } from './ast.js';

/**
 * Why an expression is outside the compiled subset (then jsonata evaluates it), or undefined when the
 * compiler takes all of it. Outside: the parent operator `%`, focus and index bindings (`@$x`, `#$i`),
 * the transform operator `| ... |`, partial application (`?`), `$eval`, and `:=` directly inside an array
 * or object constructor (jsonata evaluates their members concurrently, so the order of such bindings is
 * its own).
 */
export function unsupportedReason(ast: Node): string | undefined {
  return check(ast, false);
}

const NODE_TYPES = new Set([
  'path',
  'binary',
  'unary',
  'name',
  'string',
  'number',
  'value',
  'wildcard',
  'descendant',
  'condition',
  'block',
  'bind',
  'regex',
  'function',
  'variable',
  'lambda',
  'apply',
  'sort',
]);

const BINARY_OPERATORS = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '&',
  '..',
  'in',
  'and',
  'or',
]);

function check(node: Node | undefined, inConstructor: boolean): string | undefined {
  if (node === undefined) return undefined;
  if (!NODE_TYPES.has(node.type)) return describe(node.type);
  if (node.focus !== undefined) return 'a focus variable binding (@$)';
  if (node.index !== undefined) return 'an index variable binding (#$)';
  if (node.tuple === true || node.ancestor !== undefined || node.seekingParent !== undefined)
    return 'the parent operator (%)';
  for (const stage of [...(node.predicate ?? []), ...(node.stages ?? [])]) {
    if (stage.type !== 'filter') return 'an index variable binding (#$)';
    const r = check(stage.expr, inConstructor);
    if (r) return r;
  }
  if (node.group) {
    for (const [k, v] of node.group.lhs) {
      const r = check(k, true) ?? check(v, true);
      if (r) return r;
    }
  }
  switch (node.type) {
    case 'binary':
      if (!BINARY_OPERATORS.has(String(node.value))) return `the operator ${String(node.value)}`;
      return check(node.lhs as Node, inConstructor) ?? check(node.rhs, inConstructor);
    case 'unary':
      if (node.value === '-') return check(node.expression, inConstructor);
      if (node.value === '[') return checkAll(node.expressions ?? [], true);
      if (node.value === '{') {
        for (const [k, v] of node.lhs as readonly (readonly [Node, Node])[]) {
          const r = check(k, true) ?? check(v, true);
          if (r) return r;
        }
        return undefined;
      }
      return `the unary operator ${String(node.value)}`;
    case 'path':
      return checkAll(node.steps ?? [], inConstructor);
    case 'sort':
      return checkAll(
        (node.terms ?? []).map((t) => t.expression),
        inConstructor,
      );
    case 'condition':
      return check(node.condition, inConstructor) ?? check(node.then, inConstructor) ?? check(node.else, inConstructor);
    case 'block':
      // A block is a new frame: a binding inside it binds there, not in a constructor's shared frame.
      return checkAll(node.expressions ?? [], false);
    case 'bind':
      if (inConstructor) return ':= directly inside an array or object constructor';
      return check(node.rhs, false);
    case 'function': {
      const proc = node.procedure;
      if (proc?.type === 'variable' && proc.value === 'eval') return '$eval';
      return check(proc, inConstructor) ?? checkAll(node.arguments ?? [], inConstructor);
    }
    case 'apply':
      return check(node.lhs as Node, inConstructor) ?? check(node.rhs, inConstructor);
    case 'lambda':
      if (node.thunk !== true) return check(node.body, false) ?? checkTail(node.body);
      return check(node.body, inConstructor);
    case 'variable':
      return node.value === 'eval' ? '$eval' : undefined;
    default:
      return undefined;
  }
}

function checkAll(nodes: readonly Node[], inConstructor: boolean): string | undefined {
  for (const n of nodes) {
    const r = check(n, inConstructor);
    if (r) return r;
  }
  return undefined;
}

/**
 * jsonata turns a call in tail position of a lambda body into a thunk run by the caller's trampoline; a
 * filter, group or `[]` on a block or condition around it would then apply to the thunk itself.
 */
function checkTail(node: Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (node.type === 'condition' || node.type === 'block') {
    const wraps = node.predicate !== undefined || node.group !== undefined || node.keepArray === true;
    const inner =
      node.type === 'condition' ? [node.then, node.else] : [node.expressions?.[node.expressions.length - 1]];
    for (const n of inner) {
      if (n === undefined) continue;
      if (wraps && holdsThunk(n)) return 'a filter on a tail call';
      const r = checkTail(n);
      if (r) return r;
    }
  }
  return undefined;
}

/** Whether a tail call (jsonata's thunk lambda) sits in tail position of `n`, through conditions and blocks. */
function holdsThunk(n: Node): boolean {
  if (n.type === 'lambda') return n.thunk === true;
  if (n.type === 'condition') return [n.then, n.else].some((b) => b !== undefined && holdsThunk(b));
  if (n.type === 'block') {
    const last = n.expressions?.[n.expressions.length - 1];
    return last !== undefined && holdsThunk(last);
  }
  return false;
}

function describe(type: string): string {
  switch (type) {
    case 'parent':
      return 'the parent operator (%)';
    case 'transform':
      return 'the transform operator (| ... |)';
    case 'partial':
      return 'partial application (?)';
    default:
      return `a ${type} node`;
  }
}
