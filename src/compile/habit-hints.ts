import type { Diagnostic } from '../errors/index.js';
import { listBuiltins, type ExprHabit, type JsonataExpr } from '../expr/index.js';
import { closest, makeDiagnostic } from '../source/index.js';

/** What a recipe (or `recipe eval`'s bindings) defines, against which habits are judged. */
export interface KnownNames {
  /** Every `$name` the recipe may read: inputs, secrets, run, step ids, set/assign names, loop variables. */
  readonly names: ReadonlySet<string>;
  /** Step ids only: what `$X.outputs` may have meant. */
  readonly stepIds: ReadonlySet<string>;
  /** `recipe eval --input` gives a context value: `$` then means something. */
  readonly hasInput?: boolean;
}

/**
 * W008: `${{ inputs.x }}`, GitHub Actions' expression syntax, which JSONata reads as an object constructor
 * (and fails on with E001 `Expected ":"`). `source` is what `${ }` held: `{ inputs.x }`. Gives the
 * suggestion, or undefined when the braces hold a real object constructor (a `:` outside strings).
 */
export function actionsExpression(source: string): { text: string; suggestion: string } | undefined {
  const m = /^\s*\{([\s\S]*)\}\s*$/.exec(source);
  if (!m) return undefined;
  const inner = (m[1] ?? '').trim();
  if (inner === '' || /:/.test(inner.replace(/"[^"]*"|'[^']*'/g, ''))) return undefined;
  return { text: `\${{ ${inner} }}`, suggestion: `\${ ${actionsToJsonata(inner)} }` };
}

/** `steps.X.outputs.y` → `$X.y`, `inputs.x` → `$inputs.x`, `secrets.X` → `$secrets.X`, `==` → `=`. */
function actionsToJsonata(text: string): string {
  return text
    .replace(/(?<![\w$.])\$?steps\.([A-Za-z_][\w-]*)\.outputs\b/g, (_, id: string) => `$${id}`)
    .replace(/(?<![\w$.])(inputs|secrets|env)\./g, (_, root: string) => (root === 'env' ? '$secrets.' : `$${root}.`))
    .replace(/&&/g, 'and')
    .replace(/\|\|/g, 'or')
    .replace(/==/g, '=');
}

/** W009–W011 for the habits parseExpr found in one expression, at their places. */
export function habitHints(expr: JsonataExpr, known: KnownNames): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const habit of expr.habits) {
    const d = habitHint(habit, expr, known);
    if (d) out.push(makeDiagnostic(d.code, d.params, expr.locateOffset(habit.offset)));
  }
  return out;
}

type Hint = { code: 'W009' | 'W010' | 'W011'; params: Record<string, unknown> };

function habitHint(habit: ExprHabit, expr: JsonataExpr, known: KnownNames): Hint | undefined {
  switch (habit.kind) {
    case 'step-output': {
      if (habit.direct && !known.stepIds.has(habit.step)) return undefined;
      const suggestion = [`$${habit.step}`, ...habit.rest].join('.');
      return { code: 'W009', params: { text: habit.text, suggestion } };
    }
    case 'context': {
      if (habit.name === '$' && known.hasInput) return undefined;
      const what = habit.name === '$$' ? "JSONata's root input" : "JSONata's context value";
      const where =
        habit.name === '$' ? '; $ means the current item only inside [ ], .( ), ^( ) and function bodies' : '';
      return { code: 'W010', params: { name: habit.name, what, where } };
    }
    case 'call': {
      // A bound lambda (`$f := function...`) or a defined variable is called on purpose.
      if (!expr.variables.includes(habit.name) || known.names.has(habit.name)) return undefined;
      const suggestion = closest(habit.name, listBuiltins());
      return suggestion === undefined ? undefined : { code: 'W011', params: { name: habit.name, suggestion } };
    }
  }
}
