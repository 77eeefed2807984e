import {
  catalog,
  formatFileLineCol,
  formatTemplate,
  type CatalogEntry,
  type Diagnostic,
  type ErrorCode,
  type SourceLoc,
} from '../errors/index.js';

/** Where a diagnostic points: a SourceLoc whose pointer may be unknown (a problem of the whole file). */
export type DiagnosticLoc = Omit<SourceLoc, 'pointer'> & Partial<Pick<SourceLoc, 'pointer'>>;

/** A diagnostic from the catalog: the code's template filled with `params`; its severity is the code's. */
export function makeDiagnostic(code: ErrorCode, params: Record<string, unknown>, loc: DiagnosticLoc): Diagnostic {
  const entry: CatalogEntry = catalog[code];
  const diagnostic: Diagnostic = {
    code,
    message: formatTemplate(entry.template, params),
    file: loc.file,
    line: loc.line,
    column: loc.column,
    severity: entry.severity ?? 'error',
  };
  if (loc.pointer !== undefined) diagnostic.pointer = loc.pointer;
  return diagnostic;
}

/** `FILE:LINE:COL: CODE message`, the one text form of a diagnostic. */
export function formatDiagnostic(d: Diagnostic, file: string = d.file): string {
  return `${formatFileLineCol({ file, line: d.line, column: d.column })}: ${d.code} ${d.message}`;
}

/** Orders diagnostics by file position, so reports read top to bottom. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.code.localeCompare(b.code),
  );
}
