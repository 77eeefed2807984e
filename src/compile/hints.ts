import type { Diagnostic, SourceLoc } from '../errors/index.js';
import { JsonataExpr, escapePointer, scanTemplate } from '../expr/index.js';
import { makeDiagnostic, type Locator } from '../source/index.js';
import { actionsExpression, habitHints, type KnownNames } from './habit-hints.js';
import type { CompiledExpr, Plan } from './plan.js';

type Raw = Record<string, unknown>;

/**
 * Warnings (W001–W006, W008–W011) about habits brought from other tools: `{{ inputs.id }}` and a bare
 * `$inputs.id` in plain text (sent literally), `==`, `&&`, `||`, `!` and `.length` in JSONata, a declared
 * secret never read, an input default written as an expression, GitHub Actions' `${{ }}` and
 * `steps.X.outputs`, `$$` or a top-level `$`, a misspelt built-in function. They never stop a run;
 * `recipe validate --strict` fails on them.
 */
export function findHints(doc: Raw, plan: Plan, file: string, locator: Locator): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (pointer: string, offset?: number) => ({ file, ...locator.locate(pointer, offset), pointer });
  const names = new Set(['inputs', 'secrets', 'run', ...definedNames(doc.steps)]);
  for (const key of ['steps', 'outputs', 'connector'])
    walkStrings(doc[key], `/${key}`, (text, pointer) => hintsInString(text, pointer, names, at, out));
  const known: KnownNames = { names, stepIds: new Set(stepIds(doc.steps)) };
  for (const expr of planExprs(plan)) if (expr instanceof JsonataExpr) out.push(...habitHints(expr, known));
  unusedSecrets(doc, plan, at, out);
  expressionDefaults(doc, at, out);
  return out;
}

export type At = (pointer: string, offset?: number) => SourceLoc;

/** Fields that hold names, not text or expressions. */
const NAME_FIELDS = new Set(['id', 'as', 'index_as', 'call']);

function walkStrings(node: unknown, pointer: string, visit: (text: string, pointer: string) => void): void {
  if (typeof node === 'string') visit(node, pointer);
  else if (Array.isArray(node)) node.forEach((item, i) => walkStrings(item, `${pointer}/${i}`, visit));
  else if (node !== null && typeof node === 'object')
    for (const [key, member] of Object.entries(node))
      if (!NAME_FIELDS.has(key)) walkStrings(member, `${pointer}/${escapePointer(key)}`, visit);
}

/** Step ids, set/assign names and loop variables anywhere in the steps: the names a bare `$name` may mean. */
function definedNames(steps: unknown): string[] {
  const names: string[] = [];
  const visit = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const s of list as Raw[]) {
      if (s === null || typeof s !== 'object') continue;
      for (const key of ['id', 'as', 'index_as']) if (typeof s[key] === 'string') names.push(s[key]);
      for (const key of ['set', 'assign'])
        if (s[key] !== null && typeof s[key] === 'object') names.push(...Object.keys(s[key] as Raw));
      visit(s.steps);
    }
  };
  visit(steps);
  return names;
}

/** Step ids anywhere in the steps. */
function stepIds(steps: unknown): string[] {
  const ids: string[] = [];
  const visit = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const s of list as Raw[]) {
      if (s === null || typeof s !== 'object') continue;
      if (typeof s.id === 'string') ids.push(s.id);
      visit(s.steps);
    }
  };
  visit(steps);
  return ids;
}

function hintsInString(text: string, pointer: string, names: ReadonlySet<string>, at: At, out: Diagnostic[]): void {
  // Most strings hold neither `$` nor `{{`: nothing to look at (validate of 200 files spends most time here).
  if (!text.includes('$') && !text.includes('{{')) return;
  const scanned = scanTemplate(text);
  if (!scanned.ok) return; // E002/E004/E005 already say what is wrong
  // Text between the expressions: where `{{ }}` and bare `$name` end up sent as they are.
  let from = 0;
  for (const segment of scanned.segments) {
    if (segment.kind !== 'expr') continue;
    textHints(text, from, segment.offset - 2, pointer, names, at, out);
    const actions = actionsExpression(segment.source);
    if (actions) out.push(makeDiagnostic('W008', actions, at(pointer, segment.offset - 2)));
    jsonataHints(segment.source, segment.offset, pointer, at, out);
    from = segment.offset + segment.source.length + 1;
  }
  textHints(text, from, text.length, pointer, names, at, out);
}

function textHints(
  text: string,
  start: number,
  end: number,
  pointer: string,
  names: ReadonlySet<string>,
  at: At,
  out: Diagnostic[],
): void {
  const part = text.slice(start, end);
  // `$${ ... }` writes a literal `${ ... }` on purpose: what is inside is not a mistake.
  const taken: [number, number][] = [...part.matchAll(/\$\$\{[^}]*\}?/g)].map((m) => [m.index, m.index + m[0].length]);
  for (const m of part.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    if (taken.some(([a, b]) => m.index >= a && m.index < b)) continue;
    const inner = m[1] ?? '';
    const path = /^\$?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$/.exec(inner)?.[1];
    const suggestion = path ? `\${ $${path} }` : `\${ ${inner} }`;
    taken.push([m.index, m.index + m[0].length]);
    out.push(makeDiagnostic('W001', { text: m[0], suggestion }, at(pointer, start + m.index)));
  }
  for (const m of part.matchAll(/(?<![$\w])\$([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*)/g)) {
    const name = m[1] ?? '';
    if (!names.has(name) || taken.some(([a, b]) => m.index >= a && m.index < b)) continue;
    // `$inputs` alone, or `$name.field`: a bare `$deal` in prose (e.g. a price) is left alone unless it is a known name.
    out.push(makeDiagnostic('W002', { text: m[0], suggestion: `\${ ${m[0]} }` }, at(pointer, start + m.index)));
  }
}

const OPERATOR_ADVICE: Record<string, string> = {
  '===': 'JSONata compares with "="',
  '==': 'JSONata compares with "="',
  '!==': 'JSONata uses "!=" for not equal',
  '&&': 'JSONata writes "and"',
  '||': 'JSONata writes "or"',
  '!': 'negate with $not(...)',
};

/** `==`, `&&`, `||`, `!x` and `.length` in an expression source (outside its strings, names and comments). */
export function jsonataHints(source: string, offset: number, pointer: string, at: At, out: Diagnostic[]): void {
  if (!/[=&|!]|\.\s*length/.test(source)) return;
  const code = maskLiterals(source);
  for (const m of code.matchAll(/===|!==|==|&&|\|\||!(?!=)/g))
    out.push(
      makeDiagnostic('W003', { operator: m[0], advice: OPERATOR_ADVICE[m[0]] ?? '' }, at(pointer, offset + m.index)),
    );
  for (const m of code.matchAll(/\.\s*length\b/g)) out.push(makeDiagnostic('W004', {}, at(pointer, offset + m.index)));
}

/** The source with strings, backtick names, comments and regex literals blanked out (offsets kept). */
function maskLiterals(source: string): string {
  // UTF-16 units, like the offsets the locator takes.
  const chars = source.split('');
  let i = 0;
  let previous = '';
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < chars.length; k++) if (chars[k] !== '\n') chars[k] = ' ';
  };
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < chars.length && chars[j] !== c) j += chars[j] === '\\' && c !== '`' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      previous = 'x';
    } else if (c === '/' && chars[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const j = end < 0 ? chars.length : end + 2;
      blank(i, j);
      i = j;
    } else if (c === '/' && (previous === '' || '([{,;:=<>!?&|+-*%~'.includes(previous))) {
      let j = i + 1;
      while (j < chars.length && chars[j] !== '/') j += chars[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      previous = 'x';
    } else {
      if (!/\s/.test(c)) previous = c;
      i++;
    }
  }
  return chars.join('');
}

/** W005: a declared secret no expression of this recipe reads. */
function unusedSecrets(doc: Raw, plan: Plan, at: At, out: Diagnostic[]): void {
  if (!Array.isArray(doc.secrets) || doc.secrets.length === 0) return;
  const read = new Set<string>();
  let whole = false;
  for (const expr of planExprs(plan)) {
    if (!expr.variables.includes('secrets')) continue;
    const members = expr instanceof JsonataExpr ? expr.members.filter((m) => m.root === 'secrets') : [];
    for (const m of members) read.add(m.member);
    // `$secrets` used as a whole (passed on, looked up by a computed name): every secret may be read.
    if ((expr.source.match(/\$secrets\b/g) ?? []).length > members.length) whole = true;
  }
  if (whole) return;
  const seen = new Set<string>();
  doc.secrets.forEach((name, i) => {
    if (typeof name !== 'string' || read.has(name) || seen.has(name)) return;
    seen.add(name);
    out.push(makeDiagnostic('W005', { name }, at(`/secrets/${i}`)));
  });
}

/** Every compiled expression of a plan (not of the recipes it calls: they read their own secrets). */
function planExprs(plan: Plan): CompiledExpr[] {
  const found: CompiledExpr[] = [];
  const visit = (node: unknown, key: string) => {
    if (node === null || typeof node !== 'object' || key === 'plan' || key === 'loc') return;
    if (node instanceof JsonataExpr) {
      found.push(node);
      return;
    }
    if (Array.isArray(node)) node.forEach((item) => visit(item, ''));
    else for (const [k, member] of Object.entries(node)) visit(member, k);
  };
  visit({ connector: plan.connector, steps: plan.steps, outputs: plan.outputs }, '');
  return found;
}

/** W006: an input default that looks like an expression (`${ }`, `{{ }}`, `$inputs.x`): it is not evaluated. */
function expressionDefaults(doc: Raw, at: At, out: Diagnostic[]): void {
  const inputs = doc.inputs;
  if (inputs === null || typeof inputs !== 'object') return;
  for (const [name, spec] of Object.entries(inputs as Raw)) {
    const value = (spec as Raw | null)?.default;
    if (typeof value !== 'string') continue;
    if (/\$\{|\{\{|^\s*\$[A-Za-z_]\w*(\.|\(|$)/.test(value))
      out.push(
        makeDiagnostic('W006', { name, text: JSON.stringify(value) }, at(`/inputs/${escapePointer(name)}/default`)),
      );
  }
}
