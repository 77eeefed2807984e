import type { CompiledExpr, SourceLoc, Value } from './types.js';
import type { Diagnostic } from '../errors/index.js';
import { makeDiagnostic } from '../source/diagnostic.js';
import { parseExpr } from './compiled-expr.js';
import { scanTemplate } from './scan.js';
import type { ValueSite } from './types.js';

/** The compiled form of a YAML value, and every problem found in its expressions. */
export interface CompiledValue {
  readonly value: Value;
  readonly diagnostics: Diagnostic[];
}

/**
 * Turns a YAML value into a plan Value: strings are scanned for `${ ... }` (a scalar that is exactly one
 * `${ }` is an expr, text around or several make a template, `$${` is a literal `${`); containers become
 * object/array Values only when an expression is somewhere inside, otherwise the whole value is a literal.
 * Every expression is compiled once; problems are reported at their position inside the file.
 */
export function compileValue(raw: unknown, site: ValueSite): CompiledValue {
  const diagnostics: Diagnostic[] = [];
  const value = compileAt(raw, site, site.pointer, diagnostics);
  return { value, diagnostics };
}

function compileAt(raw: unknown, site: ValueSite, pointer: string, out: Diagnostic[]): Value {
  if (typeof raw === 'string') return compileString(raw, site, pointer, out);
  if (Array.isArray(raw)) {
    const items = raw.map((item, i) => compileAt(item, site, `${pointer}/${i}`, out));
    if (items.every((v) => v.kind === 'literal')) return { kind: 'literal', value: items.map(literalOf) };
    return { kind: 'array', items };
  }
  if (raw !== null && typeof raw === 'object') {
    const entries: Record<string, Value> = {};
    for (const [key, member] of Object.entries(raw)) {
      entries[key] = compileAt(member, site, `${pointer}/${escapePointer(key)}`, out);
    }
    if (Object.values(entries).every((v) => v.kind === 'literal')) {
      const value: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(entries)) value[key] = literalOf(v);
      return { kind: 'literal', value };
    }
    return { kind: 'object', entries };
  }
  return { kind: 'literal', value: raw };
}

function compileString(text: string, site: ValueSite, pointer: string, out: Diagnostic[]): Value {
  if (!text.includes('${')) return { kind: 'literal', value: text };
  const locAt = (offset: number): SourceLoc => {
    const pos = site.locate?.(pointer, offset) ?? site.locate?.(pointer) ?? site.fallback ?? { line: 1, column: 1 };
    return { file: site.file, line: pos.line, column: pos.column, pointer };
  };
  const scanned = scanTemplate(text);
  if (!scanned.ok) {
    if (scanned.unclosed === 'brace') out.push(makeDiagnostic('E002', {}, locAt(scanned.offset)));
    else out.push(makeDiagnostic(scanned.unclosed === 'string' ? 'E004' : 'E005', {}, locAt(scanned.openAt)));
    return { kind: 'literal', value: text };
  }
  const parts: (string | CompiledExpr)[] = [];
  for (const segment of scanned.segments) {
    if (segment.kind === 'text') {
      parts.push(segment.text);
      continue;
    }
    if (segment.source.trim() === '') {
      out.push(makeDiagnostic('E003', {}, locAt(segment.offset - 2)));
      continue;
    }
    const base = segment.offset;
    const parsed = parseExpr(segment.source, locAt(base - 2), (offset) => locAt(base + offset));
    if ('error' in parsed) {
      out.push(makeDiagnostic('E001', { reason: parsed.error.reason }, locAt(base + parsed.error.offset)));
      continue;
    }
    parts.push(parsed.expr);
  }
  const exprs = parts.filter((p): p is CompiledExpr => typeof p !== 'string');
  if (exprs.length === 0) return { kind: 'literal', value: parts.join('') };
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && typeof only !== 'string') return { kind: 'expr', expr: only };
  return { kind: 'template', parts };
}

function literalOf(v: Value): unknown {
  return v.kind === 'literal' ? v.value : undefined;
}

/** RFC 6901: `~` and `/` inside a key. */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
