import { escapePointer } from '../expr/index.js';
import type { Diagnostic } from '../errors/index.js';
import { didYouMean, makeDiagnostic, type Locator } from '../source/index.js';
import { UNRESOLVED_PLAN } from './build-steps.js';
import type { CallStep, Step } from './plan.js';

/**
 * A call's `with` against the called recipe's inputs: unknown names, and required inputs (without default)
 * not given. `written` maps a call step's pointer to the path as written in the file.
 */
export function checkCallInputs(
  steps: readonly Step[],
  written: ReadonlyMap<string, string>,
  file: string,
  locator: Locator,
  out: Diagnostic[],
): void {
  for (const step of steps) {
    if (step.kind === 'call' && step.plan !== UNRESOLVED_PLAN)
      checkCall(step, written.get(step.loc.pointer) ?? step.path, file, locator, out);
    if ((step.kind === 'foreach' || step.kind === 'paginate') && step.steps)
      checkCallInputs(step.steps, written, file, locator, out);
  }
}

function checkCall(step: CallStep, shown: string, file: string, locator: Locator, out: Diagnostic[]): void {
  const pointer = step.loc.pointer;
  const declared = step.plan.inputs;
  for (const name of Object.keys(step.with)) {
    if (Object.hasOwn(declared, name)) continue;
    const p = `${pointer}/with/${escapePointer(name)}`;
    out.push(
      makeDiagnostic(
        'R012',
        { path: shown, name, hint: didYouMean(name, Object.keys(declared)) },
        { file, ...locator.locateKey(p), pointer: p },
      ),
    );
  }
  for (const [name, spec] of Object.entries(declared)) {
    if (!spec.required || spec.default !== undefined || Object.hasOwn(step.with, name)) continue;
    const p = `${pointer}/call`;
    out.push(makeDiagnostic('R013', { path: shown, name }, { file, ...locator.locate(p), pointer: p }));
  }
}
