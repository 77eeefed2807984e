import { resolveInputs } from '../compile/inputs.js';
import type { CallStep } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { locationOf } from '../frame/step-errors.js';
import { evaluate } from '../frame/eval.js';
import { runSteps } from './interpret.js';
import type { StepContext, StepOutcome } from '../calls/step-context.js';
import { Scope } from '../frame/scope.js';
import { evaluateOutputs, readSecrets } from '../frame/secrets-and-outputs.js';
import { READ_ONLY, intersectGrants } from '../packages/grant.js';
import type { GrantInForce } from '../calls/run-state.js';

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
  const inForce = grantInForce(step, stepCtx.state.grant);
  root.set('secrets', inForce ? grantedSecrets(step, callee, scope) : readSecrets(callee, stepCtx.ctx, step.loc));
  root.set('run', stepCtx.state.run);
  const httpAllow = callee.http ? [...stepCtx.state.httpAllow, callee.http.allow] : stepCtx.state.httpAllow;
  const state = {
    ...stepCtx.nested(),
    plan: callee,
    defaultConnector: callee.connector ?? stepCtx.state.defaultConnector,
    // A grant's hosts join the allow lists: a host must be in each of them.
    httpAllow: inForce && inForce !== stepCtx.state.grant ? [...httpAllow, inForce.grant.http] : httpAllow,
    ...(inForce ? { grant: inForce } : {}),
  };
  await runSteps(callee.steps, root, state);
  return { output: await evaluateOutputs(callee, root) };
}

/**
 * The grant the called recipe runs under: a package call gets its `allow:` (read-only without one) and a
 * relative call with `allow:` gets that, each narrowed by the grant in force here; any other call keeps it.
 */
function grantInForce(step: CallStep, outer: GrantInForce | undefined): GrantInForce | undefined {
  if (!step.package && !step.allow) return outer;
  const grant = intersectGrants(outer?.grant, step.allow ?? READ_ONLY);
  return { grant, to: step.package?.key ?? step.path, counter: { writes: 0 } };
}

/** A granted call's secrets: only those its allow.secrets maps, each from the caller's own $secrets. */
function grantedSecrets(step: CallStep, callee: CallStep['plan'], scope: Scope): Record<string, string> {
  const mine = (scope.get('secrets') ?? {}) as Record<string, unknown>;
  const granted = step.allow?.secrets ?? {};
  const out: Record<string, string> = {};
  for (const name of callee.secrets) {
    const from = Object.hasOwn(granted, name) ? granted[name] : undefined;
    const value = from !== undefined && Object.hasOwn(mine, from) ? mine[from] : undefined;
    if (typeof value !== 'string')
      throw new RecipeError('P035', { name, from: from ?? '(none)' }, locationOf(step.loc));
    out[name] = value;
  }
  return out;
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
