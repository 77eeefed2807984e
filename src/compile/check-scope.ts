import { JsonataExpr } from '../expr/index.js';
import type { Diagnostic } from '../errors/index.js';
import { didYouMean, makeDiagnostic } from '../source/index.js';
import type { ConnectorRef, Plan, Step, Value } from './plan.js';

/** Variables every expression can read. */
export const GLOBAL_NAMES = ['inputs', 'secrets', 'run'] as const;
/** Names bound only around one step: $result and $response in `assign`, $response in paginate's `next`. */
export const STEP_LOCAL_NAMES = ['result', 'response'] as const;

type Scope = ReadonlySet<string>;

/** Where names are defined anywhere in the file, to explain why one is not visible at a given place. */
interface Definitions {
  /** Step ids and set/assign names → where defined, and the loop step whose list holds them. */
  readonly names: Map<string, { line: number; parent?: { kind: string; line: number } }>;
  readonly loops: Map<string, number>;
}

/**
 * Checks every expression's free variables against what is visible where it is evaluated:
 * globals, ids of earlier steps in the same list and enclosing lists, names bound by earlier set/assign,
 * loop variables inside their loop's steps, $result/$response inside assign. Also $inputs.X and $secrets.X
 * against the declared inputs and secrets.
 */
export function checkScopes(plan: Omit<Plan, 'file'>, diagnostics: Diagnostic[]): void {
  const defs: Definitions = { names: new Map(), loops: new Map() };
  collectDefinitions(plan.steps, defs, undefined);
  const checker = new ScopeChecker(plan, defs, diagnostics);
  const globals = new Set<string>(GLOBAL_NAMES);
  if (plan.connector?.kind === 'id') checker.value(plan.connector.id, globals);
  if (plan.connector?.kind === 'lookup') {
    checker.value(plan.connector.workspace, globals);
    checker.value(plan.connector.definition, globals);
  }
  const top = checker.steps(plan.steps, globals);
  for (const value of Object.values(plan.outputs)) checker.value(value, top);
}

function collectDefinitions(
  steps: readonly Step[],
  defs: Definitions,
  parent: { kind: string; line: number } | undefined,
): void {
  const define = (name: string, line: number) => {
    if (!defs.names.has(name)) defs.names.set(name, parent ? { line, parent } : { line });
  };
  for (const step of steps) {
    const line = step.loc.line;
    if (step.id !== undefined) define(step.id, line);
    if (step.kind === 'set') for (const name of Object.keys(step.values)) define(name, line);
    if (step.assign) for (const name of Object.keys(step.assign)) define(name, line);
    if (step.kind === 'foreach') {
      defs.loops.set(step.as, line);
      if (step.indexAs !== undefined) defs.loops.set(step.indexAs, line);
      collectDefinitions(step.steps, defs, { kind: 'foreach', line });
    }
    if (step.kind === 'paginate' && step.steps) {
      if (step.as !== undefined) defs.loops.set(step.as, line);
      collectDefinitions(step.steps, defs, { kind: 'paginate', line });
    }
  }
}

class ScopeChecker {
  constructor(
    private readonly plan: Omit<Plan, 'file'>,
    private readonly defs: Definitions,
    private readonly out: Diagnostic[],
  ) {}

  /** Checks a list of steps; returns the scope after the last one. */
  steps(steps: readonly Step[], outer: Scope): Set<string> {
    const scope = new Set(outer);
    for (const step of steps) {
      this.value(step.when, scope);
      this.connector(step.connector, scope);
      this.body(step, scope);
      if (step.assign) {
        const inner = new Set([...scope, ...STEP_LOCAL_NAMES, ...(step.id ? [step.id] : [])]);
        for (const v of Object.values(step.assign)) this.value(v, inner);
      }
      if (step.id !== undefined) scope.add(step.id);
      if (step.kind === 'set') for (const name of Object.keys(step.values)) scope.add(name);
      if (step.assign) for (const name of Object.keys(step.assign)) scope.add(name);
    }
    return scope;
  }

  private body(step: Step, scope: Set<string>): void {
    switch (step.kind) {
      case 'execute':
        this.value(step.params, scope);
        // in_doubt's lookup sees the step's scope and $request; its result also $result.
        this.value(step.inDoubt?.params, new Set([...scope, 'request']));
        return this.value(step.inDoubt?.result, new Set([...scope, 'request', 'result']));
      case 'paginate':
        this.value(step.params, scope);
        this.value(step.next, new Set([...scope, 'response']));
        if (step.steps) this.steps(step.steps, new Set([...scope, ...(step.as ? [step.as] : [])]));
        return;
      case 'foreach': {
        this.value(step.items, scope);
        const inner = new Set([...scope, step.as, ...(step.indexAs ? [step.indexAs] : [])]);
        const after = this.steps(step.steps, inner);
        return this.value(step.collect, after);
      }
      case 'transform':
        return this.value(step.value, scope);
      case 'set':
        for (const v of Object.values(step.values)) this.value(v, scope);
        return;
      case 'log':
      case 'fail':
        return this.value(step.message, scope);
      case 'assert':
        this.value(step.condition, scope);
        return this.value(step.message, scope);
      case 'call':
        for (const v of Object.values(step.with)) this.value(v, scope);
        return;
      case 'download':
        this.value(step.params, scope);
        return this.value(step.to, scope);
      case 'http':
        for (const v of [step.url, step.query, step.headers, step.json, step.body]) this.value(v, scope);
        return;
      default: {
        const never: never = step;
        throw new Error(`unknown step kind ${String(never)}`);
      }
    }
  }

  private connector(ref: ConnectorRef | undefined, scope: Scope): void {
    if (!ref) return;
    if (ref.kind === 'id') return this.value(ref.id, scope);
    this.value(ref.workspace, scope);
    this.value(ref.definition, scope);
  }

  value(value: Value | undefined, scope: Scope): void {
    if (!value) return;
    switch (value.kind) {
      case 'literal':
        return;
      case 'expr':
        return this.expr(value.expr, scope);
      case 'template':
        for (const part of value.parts) if (typeof part !== 'string') this.expr(part, scope);
        return;
      case 'object':
        for (const v of Object.values(value.entries)) this.value(v, scope);
        return;
      case 'array':
        for (const v of value.items) this.value(v, scope);
        return;
    }
  }

  private expr(expr: unknown, scope: Scope): void {
    if (!(expr instanceof JsonataExpr)) return;
    for (const ref of expr.refs) {
      if (scope.has(ref.name)) continue;
      const loc = expr.locateOffset(ref.offset);
      this.out.push(this.unknownVariable(ref.name, loc.line, scope, loc));
    }
    for (const member of expr.members) {
      if (!scope.has(member.root)) continue;
      const loc = expr.locateOffset(member.offset);
      if (member.root === 'inputs' && !(member.member in this.plan.inputs)) {
        const hint = didYouMean(member.member, Object.keys(this.plan.inputs));
        this.out.push(makeDiagnostic('R005', { name: member.member, hint }, loc));
      }
      if (member.root === 'secrets' && !this.plan.secrets.includes(member.member)) {
        const hint = didYouMean(member.member, this.plan.secrets);
        this.out.push(makeDiagnostic('R006', { name: member.member, hint }, loc));
      }
    }
  }

  private unknownVariable(
    name: string,
    line: number,
    scope: Scope,
    loc: Parameters<typeof makeDiagnostic>[2],
  ): Diagnostic {
    if (name === 'result') return makeDiagnostic('R014', { name, where: 'assign' }, loc);
    if (name === 'request') return makeDiagnostic('R014', { name, where: 'in_doubt' }, loc);
    if (name === 'response') return makeDiagnostic('R014', { name, where: "assign and paginate's next" }, loc);
    const def = this.defs.names.get(name);
    if (def !== undefined && def.line >= line) return makeDiagnostic('R003', { name, line: def.line }, loc);
    const loopLine = this.defs.loops.get(name);
    if (loopLine !== undefined) return makeDiagnostic('R004', { name, line: loopLine }, loc);
    if (def?.parent) return makeDiagnostic('R016', { name, parent: def.parent.kind, line: def.parent.line }, loc);
    // Defined earlier, not nested, yet not visible: the step itself, or the loop this expression is inside.
    if (def !== undefined) return makeDiagnostic('R017', { name, line: def.line }, loc);
    return makeDiagnostic('R002', { name, hint: didYouMean(name, scope, '$') }, loc);
  }
}
