import type { Diagnostic } from '../errors/index.js';
import { closest, makeDiagnostic, type Locator } from '../source/index.js';

/** The step kind keys (the schema's step oneOf lists the same eleven). */
export const KIND_KEYS = [
  'execute',
  'paginate',
  'foreach',
  'transform',
  'set',
  'log',
  'assert',
  'fail',
  'call',
  'download',
  'http',
] as const;

/** A step whose kind keys are wrong: its schema errors are replaced by one clear diagnostic. */
export interface KindProblem {
  readonly pointer: string;
  readonly diagnostic: Diagnostic;
}

type Raw = Record<string, unknown>;

/**
 * Finds every step (top-level and nested `steps` lists) and checks it has exactly one kind key, so that a
 * misspelt or doubled kind gives one diagnostic ("unknown step kind key 'exectue'") instead of ten failed
 * branches. `knownFields` are all the field names a step may have, to tell a misspelt kind from a field.
 */
export function checkStepKinds(
  doc: unknown,
  knownFields: ReadonlySet<string>,
  locator: Locator,
  file: string,
): KindProblem[] {
  const problems: KindProblem[] = [];
  const visit = (steps: unknown, pointer: string) => {
    if (!Array.isArray(steps)) return;
    steps.forEach((step, i) => {
      if (step === null || typeof step !== 'object' || Array.isArray(step)) return;
      const at = `${pointer}/${i}`;
      const problem = checkStep(step as Raw, at, knownFields, locator, file);
      if (problem) problems.push(problem);
      visit((step as Raw).steps, `${at}/steps`);
    });
  };
  if (doc !== null && typeof doc === 'object') visit((doc as Raw).steps, '/steps');
  return problems;
}

function checkStep(
  step: Raw,
  pointer: string,
  knownFields: ReadonlySet<string>,
  locator: Locator,
  file: string,
): KindProblem | undefined {
  const keys = Object.keys(step);
  const kinds = keys.filter((k) => (KIND_KEYS as readonly string[]).includes(k));
  if (kinds.length === 1) return undefined;
  if (kinds.length > 1) {
    const second = kinds[1] as string;
    const loc = { file, ...locator.locateKey(`${pointer}/${second}`), pointer };
    const diagnostic = makeDiagnostic('S004', { count: kinds.length, keys: kinds.join(' and ') }, loc);
    return { pointer, diagnostic };
  }
  const unknown = keys.filter((k) => !knownFields.has(k));
  const likely = unknown.find((k) => closest(k, KIND_KEYS) !== undefined) ?? unknown[0];
  if (likely !== undefined) {
    const suggestion = closest(likely, KIND_KEYS);
    const hint = suggestion ? ` (did you mean "${suggestion}"?)` : `; a step needs one of: ${KIND_KEYS.join(', ')}`;
    const loc = { file, ...locator.locateKey(`${pointer}/${likely}`), pointer: `${pointer}/${likely}` };
    return { pointer, diagnostic: makeDiagnostic('S002', { key: likely, hint }, loc) };
  }
  const loc = { file, ...locator.locate(pointer), pointer };
  return { pointer, diagnostic: makeDiagnostic('S003', { kinds: KIND_KEYS.join(', ') }, loc) };
}
