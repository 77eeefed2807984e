/** How the CLI maps an error to an exit code (the CLI owns the numbers). */
export type ErrorClass = 'invalid' | 'run' | 'config' | 'interrupted';

export interface CatalogEntry {
  /** Template with {name} placeholders filled from the error's params. */
  template: string;
  class: ErrorClass;
  /** A warning: reported, but fails validation only under --strict (its class says how it then fails). */
  severity?: 'warning';
}

/** One problem found in a recipe file; validation collects all of them before reporting. */
export interface Diagnostic {
  code: string;
  message: string;
  file: string;
  line: number;
  column: number;
  pointer?: string;
  severity: 'error' | 'warning';
}
