import path from 'node:path';

/**
 * The one location type of the engine and its one text form. Plans, diagnostics, errors, test files, the
 * journal's records and the run report all point into files with these; `file:line:col` is written by
 * formatFileLineCol alone, so editors, CI annotations and people read the same form everywhere.
 */

/** A 1-based line and column in a file. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A place in a recipe (or test) file: 1-based line and column, and the JSON pointer of the node there. */
export interface SourceLoc extends Position {
  readonly file: string;
  readonly pointer: string;
}

/** Where an error is, as far as it is known (a file only, or nothing when it has an HTTP context instead). */
export type Location = Partial<SourceLoc>;

/**
 * `file:line:col`; `file:line:1` when the column is unknown, `file` alone without a line, '' without a file.
 * The one formatter of locations (`formatLocation` is this as a message prefix).
 */
export function formatFileLineCol(loc: Location | undefined): string {
  if (!loc?.file) return '';
  if (loc.line === undefined) return loc.file;
  return `${loc.file}:${loc.line}:${loc.column ?? 1}`;
}

/** FILE:LINE:COL followed by `: `, as a prefix of a message (editors and CI annotations expect it); '' without a file. */
export function formatLocation(loc: Location | undefined): string {
  const text = formatFileLineCol(loc);
  return text === '' ? '' : `${text}: `;
}

/**
 * A file as diagnostics name it: relative to the working directory (`recipes/a.yaml`, `../shared/b.yaml`),
 * whether it was given relative or absolute; absolute only on another root (a Windows drive).
 */
export function displayPath(file: string, cwd: string = process.cwd()): string {
  const relative = path.relative(cwd, path.resolve(cwd, file));
  return relative === '' || path.isAbsolute(relative) ? file : relative;
}
