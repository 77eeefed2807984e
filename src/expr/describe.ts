import { formatFileLineCol } from '../errors/index.js';
import { JsonataExpr } from './compiled-expr.js';

/** Every expression inside a value (a plan, a step, ...), each once, in the order they are met. */
export function collectExpressions(root: unknown): JsonataExpr[] {
  const found: JsonataExpr[] = [];
  const seen = new Set<object>();
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (value instanceof JsonataExpr) {
      found.push(value);
      return;
    }
    for (const member of Array.isArray(value) ? value : Object.values(value)) walk(member);
  };
  walk(root);
  return found;
}

/** One line for a debug log: where the expression is, which engine runs it and why, and its start. */
export function describeEngine(expr: JsonataExpr): string {
  const where = formatFileLineCol(expr.loc);
  const text = expr.source.replace(/\s+/g, ' ').trim();
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  const engine = expr.engine.kind === 'compiled' ? 'compiled' : `jsonata (${expr.engine.reason})`;
  return `expression ${where} ${engine}: ${shown}`;
}

/** One line for an expression the compiled form handed back to jsonata during a run, or undefined. */
export function describeHandBack(expr: JsonataExpr): string | undefined {
  const { count, reason } = expr.handedBack;
  if (count === 0) return undefined;
  return `expression ${formatFileLineCol(expr.loc)} ran in jsonata ${count} time(s): ${reason}`;
}
