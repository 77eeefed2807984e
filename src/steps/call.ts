import { resolveInputs } from '../compile/inputs.js';
import type { CallStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { locationOf } from '../frame/step-errors.js';
import { evaluate } from '../frame/eval.js';
import { runSteps } from './interpret.js';
import type { StepContext, StepOutcome } from '../calls/step-context.js';
import { Scope } from '../frame/scope.js';
import { evaluateOutputs, readSecrets } from '../frame/secrets-and-outputs.js';

/**
 * call: runs another recipe's plan with the `with:` values as its inputs, in a fresh scope (it sees only
 * its own inputs, secrets and $run). Its default connector is its own, else the caller's. The output is
 * the called recipe's outputs.
 */
export async function runCall(step: CallStep, scope: Scope, stepCtx: StepContext): Promise<StepOutcome> {
  const given: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(step.with)) given[name] = await evaluate(value, scope);
  const inputs = checkInputs(step, given);
  const callee = step.plan;
  const root = new Scope();
  // The called recipe's own expression_timeout_ms; the caller's step deadlines still apply.
  root.bound({ now: stepCtx.ctx.now, timeoutMs: callee.expressionTimeoutMs }, scope);
  root.set('inputs', inputs);
  root.set('secrets', readSecrets(callee, stepCtx.ctx, step.loc));
  root.set('run', stepCtx.state.run);
  const state = {
    ...stepCtx.nested(),
    plan: callee,
    defaultConnector: callee.connector ?? stepCtx.state.defaultConnector,
    httpAllow: callee.http ? [...stepCtx.state.httpAllow, callee.http.allow] : stepCtx.state.httpAllow,
  };
  await runSteps(callee.steps, root, state);
  return { output: await evaluateOutputs(callee, root) };
}

/** The `with:` values checked and completed against the called recipe's inputs (same rules as the CLI's). */
function checkInputs(step: CallStep, given: Record<string, unknown>): Record<string, unknown> {
  const { values, diagnostics } = resolveInputs(step.plan, given);
  const first = diagnostics[0];
  if (first) {
    const name = /"([^"]+)"/.exec(first.message)?.[1] ?? '?';
    throw new RecipeError(
      'X012',
      { path: step.path, name, reason: `${first.code} ${first.message}` },
      locationOf(step.loc),
    );
  }
  return values;
}
