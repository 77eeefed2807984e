import type { Diagnostic } from '../errors/index.js';
import { READ_ONLY, describeWrites, exceeding } from '../packages/grant.js';
import { makeDiagnostic, type Locator } from '../source/index.js';
import { UNRESOLVED_PLAN } from './build-steps.js';
import { footprintOf } from './footprint.js';
import type { Step } from './plan.js';

/**
 * Each call that carries a grant (a package call: read-only without `allow:`; any call with `allow:`)
 * against the footprint of what it calls: every write, http host and secret beyond the grant is reported
 * at the `call:` line. The run checks each request again before sending it.
 */
export function checkGrants(steps: readonly Step[], file: string, locator: Locator, out: Diagnostic[]): void {
  for (const step of steps) {
    if (step.kind === 'foreach' || (step.kind === 'paginate' && step.steps))
      checkGrants(step.steps ?? [], file, locator, out);
    if (step.kind !== 'call' || step.plan === UNRESOLVED_PLAN) continue;
    if (!step.package && !step.allow) continue;
    const grant = step.allow ?? READ_ONLY;
    const key = step.package?.key ?? step.path;
    const over = exceeding(footprintOf(step.plan), grant);
    const p = `${step.loc.pointer}/call`;
    const loc = { file, ...locator.locate(p), pointer: p };
    for (const write of over.writes)
      out.push(makeDiagnostic('P030', { key, write, granted: describeWrites(grant) }, loc));
    for (const host of over.http) out.push(makeDiagnostic('P031', { key, host }, loc));
    for (const name of over.secrets) out.push(makeDiagnostic('P032', { key, name }, loc));
  }
}
