import { escapePointer, isBuiltin } from '../expr/index.js';
import type { Diagnostic } from '../errors/index.js';
import { makeDiagnostic, type Locator } from '../source/index.js';
import { GLOBAL_NAMES, STEP_LOCAL_NAMES } from './check-scope.js';
import type { Step } from './plan.js';

const RESERVED: ReadonlySet<string> = new Set([...GLOBAL_NAMES, ...STEP_LOCAL_NAMES]);

/** Duplicate step ids (anywhere in the file) and names that would shadow a built-in or a reserved variable. */
export function checkNames(steps: readonly Step[], file: string, locator: Locator, out: Diagnostic[]): void {
  const firstLine = new Map<string, number>();
  const at = (pointer: string, key = false) => ({
    file,
    ...(key ? locator.locateKey(pointer) : locator.locate(pointer)),
    pointer,
  });
  const checkName = (what: string, name: string, pointer: string, key: boolean) => {
    if (isBuiltin(name)) out.push(makeDiagnostic('R007', { what, name }, at(pointer, key)));
    else if (RESERVED.has(name)) out.push(makeDiagnostic('R008', { what, name }, at(pointer, key)));
  };
  const visit = (list: readonly Step[]) => {
    for (const step of list) {
      const p = step.loc.pointer;
      if (step.id !== undefined) {
        const seen = firstLine.get(step.id);
        if (seen !== undefined) out.push(makeDiagnostic('R001', { id: step.id, firstLine: seen }, at(`${p}/id`)));
        else firstLine.set(step.id, at(`${p}/id`).line);
        checkName('step id', step.id, `${p}/id`, false);
      }
      if (step.kind === 'foreach') {
        // `as` defaults to "item"; only a written name can be wrong.
        if (locator.has(`${p}/as`)) checkName('loop variable', step.as, `${p}/as`, false);
        if (step.indexAs !== undefined) checkName('index variable', step.indexAs, `${p}/index_as`, false);
        visit(step.steps);
      }
      if (step.kind === 'paginate') {
        if (step.as !== undefined) checkName('item variable', step.as, `${p}/as`, false);
        if (step.steps) visit(step.steps);
      }
      if (step.kind === 'set')
        for (const name of Object.keys(step.values))
          checkName('set name', name, `${p}/set/${escapePointer(name)}`, true);
      if (step.assign)
        for (const name of Object.keys(step.assign))
          checkName('assign name', name, `${p}/assign/${escapePointer(name)}`, true);
    }
  };
  visit(steps);
}
