/** What a GitHub Actions workflow command annotation says and where. */
export interface Annotation {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly title?: string;
  readonly message: string;
}

/**
 * `::error file=…,line=…,col=…,title=…::message`, the workflow command GitHub Actions turns into an annotation
 * on the file's line in a pull request. Escaped as the runner expects: % and line breaks everywhere, and also
 * `:` and `,` in property values.
 */
export function githubAnnotation(a: Annotation, level: 'error' | 'warning' | 'notice' = 'error'): string {
  const props = [`file=${escapeProperty(a.file)}`];
  if (a.line !== undefined) props.push(`line=${a.line}`);
  if (a.column !== undefined) props.push(`col=${a.column}`);
  if (a.title !== undefined) props.push(`title=${escapeProperty(a.title)}`);
  return `::${level} ${props.join(',')}::${escapeData(a.message)}`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
