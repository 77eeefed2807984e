import type { SourceLoc } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';

/**
 * The error a step failed with, as a RecipeError that has a location: client errors get the step's
 * file:line (they carry their HTTP context in params), anything unexpected becomes X001 at the step.
 */
export function atStep(err: unknown, loc: SourceLoc): RecipeError {
  if (err instanceof RecipeError) {
    if (err.location) return err;
    return new RecipeError(err.code, err.params, locationOf(loc), { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new RecipeError('X001', { message }, locationOf(loc), { cause: err });
}

/** A plan SourceLoc as an error Location. */
export function locationOf(loc: SourceLoc): SourceLoc {
  return { file: loc.file, line: loc.line, column: loc.column, pointer: loc.pointer };
}

/** What a step with on_error: continue outputs instead of failing. */
export function errorOutput(
  err: RecipeError,
  redact: (s: string) => string,
): { error: { code: string; message: string; status: number | null } } {
  const status = typeof err.params.status === 'number' ? err.params.status : null;
  return { error: { code: err.code, message: redact(err.message), status } };
}

/** True for errors that must stop the run whatever on_error says (Ctrl-C). */
export function isInterrupt(err: unknown): boolean {
  return err instanceof RecipeError && err.class === 'interrupted';
}
