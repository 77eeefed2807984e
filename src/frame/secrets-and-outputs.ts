import type { Plan, SourceLoc } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import type { RunContext } from './run-context.js';
import { locationOf } from './step-errors.js';
import { evaluate } from './eval.js';
import type { Scope } from './scope.js';

/**
 * $secrets for a plan: only the names it declares, read from the run's environment; each value joins the
 * redactor so it is masked wherever it goes. A declared secret that is not set is a configuration error.
 */
export function readSecrets(plan: Plan, ctx: RunContext, loc?: SourceLoc): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of plan.secrets) {
    const value = ctx.env[name];
    ctx.onEnvRead?.(name);
    if (value === undefined) {
      // At the call step that needs it, else at the recipe's `secrets:` entry (the place to read and fix).
      const at = loc ?? plan.secretLocs?.[name];
      throw new RecipeError('X013', { name }, at ? locationOf(at) : { file: plan.file });
    }
    ctx.redactor.add(value);
    out[name] = value;
  }
  return out;
}

/** The plan's outputs, evaluated in its root scope at the end. */
export async function evaluateOutputs(plan: Plan, scope: Scope): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(plan.outputs)) out[name] = await evaluate(value, scope);
  return out;
}
