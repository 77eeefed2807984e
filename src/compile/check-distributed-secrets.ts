import { JsonataExpr } from '../expr/index.js';
import type { Diagnostic } from '../errors/index.js';
import { makeDiagnostic } from '../source/index.js';
import type { Plan, Step } from './plan.js';

/**
 * A distributed foreach sends its items and the variables its steps read to other workers through Redis,
 * masked: a value derived from a secret arrives as `***` and would be written as data. So a recipe where one
 * does is refused here (X022, at the expression that reads it), before anything runs. `$secrets` read inside
 * the loop is fine: each worker reads its own environment.
 *
 * Static and conservative: a step whose own expressions read `$secrets`, or a name already derived from one,
 * makes the names it defines derived from a secret (its id, its assign names, and those of its set names whose
 * own value does).
 */
export function checkDistributedSecrets(plan: Omit<Plan, 'file'>, diagnostics: Diagnostic[]): void {
  if (!hasDistributed(plan.steps)) return;
  const tainted = new Set<string>();
  // Definitions come before their uses, but a loop's names feed its later iterations: to a fixed point.
  for (let size = -1; size !== tainted.size;) {
    size = tainted.size;
    taint(plan.steps, tainted);
  }
  checkLoops(plan.steps, tainted, diagnostics);
}

function hasDistributed(steps: readonly Step[]): boolean {
  return steps.some((s) => (s.kind === 'foreach' && s.distribute !== undefined) || hasDistributed(nested(s)));
}

function nested(step: Step): readonly Step[] {
  return 'steps' in step && Array.isArray(step.steps) ? step.steps : [];
}

function definedNames(step: Step): string[] {
  const names: string[] = [];
  if (step.id !== undefined) names.push(step.id);
  if (step.kind === 'set') names.push(...Object.keys(step.values));
  if (step.assign) names.push(...Object.keys(step.assign));
  return names;
}

function taint(steps: readonly Step[], tainted: Set<string>): void {
  for (const step of steps) {
    taint(nested(step), tainted);
    const derived = (exprs: JsonataExpr[]): boolean =>
      exprs.some((e) => e.refs.some((r) => r.name === 'secrets' || tainted.has(r.name)));
    // A container (foreach, paginate) is derived from what its steps derive (its collect reads them).
    const fromInside = nested(step).some((s) => definedNames(s).some((n) => tainted.has(n)));
    if (derived(exprsOf(step)) || fromInside) {
      if (step.id !== undefined) tainted.add(step.id);
      // set: each name from its own value; assign names read $result, the step's (derived) output.
      if (step.kind === 'set')
        for (const [name, value] of Object.entries(step.values)) if (derived(exprsIn(value))) tainted.add(name);
      for (const name of Object.keys(step.assign ?? {})) tainted.add(name);
    }
  }
}

function checkLoops(steps: readonly Step[], tainted: ReadonlySet<string>, out: Diagnostic[]): void {
  for (const step of steps) {
    if (step.kind === 'foreach' && step.distribute !== undefined) {
      const line = step.loc.line;
      // The items are computed once and sent: $secrets in them arrives masked too.
      for (const e of exprsIn(step.items))
        for (const r of e.refs) if (r.name === 'secrets' || tainted.has(r.name)) out.push(refused(e, r, line));
      // The loop's steps (and collect) read names from outside it as sent; names its own steps define are
      // computed on the worker.
      const inside = new Set(allDefined(step.steps));
      for (const e of [...step.steps.flatMap((s) => exprsDeep(s)), ...exprsIn(step.collect)])
        for (const r of e.refs) if (tainted.has(r.name) && !inside.has(r.name)) out.push(refused(e, r, line));
      continue;
    }
    checkLoops(nested(step), tainted, out);
  }
}

function refused(e: JsonataExpr, r: { name: string; offset: number }, line: number): Diagnostic {
  return makeDiagnostic('X022', { name: r.name, line }, e.locateOffset(r.offset));
}

function allDefined(steps: readonly Step[]): string[] {
  return steps.flatMap((s) => [...definedNames(s), ...allDefined(nested(s))]);
}

function exprsDeep(step: Step): JsonataExpr[] {
  return [...exprsOf(step), ...nested(step).flatMap((s) => exprsDeep(s))];
}

/** The compiled expressions of a step's own fields (not its nested steps'). */
function exprsOf(step: Step): JsonataExpr[] {
  return Object.entries(step).flatMap(([key, v]) => (key === 'steps' || key === 'loc' ? [] : exprsIn(v)));
}

/** Every compiled expression in a value (a Value, or any plain structure holding some). */
function exprsIn(value: unknown): JsonataExpr[] {
  if (value instanceof JsonataExpr) return [value];
  if (Array.isArray(value)) return value.flatMap(exprsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(exprsIn);
  return [];
}
