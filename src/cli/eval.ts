import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { expressionHints } from '../compile/index.js';
import { formatLocation, RecipeError, type Diagnostic } from '../errors/index.js';
import { evaluateExpression } from '../expr/index.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import { collect } from './options.js';

interface EvalFlags {
  input?: string;
  bind?: string[];
  json?: boolean;
}

/** `recipe eval EXPR`: evaluates one expression as a recipe step would and prints its value as JSON. */
export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('evaluate one expression as a recipe step would (same engine, same built-ins) and print its value')
    .argument('<expression>', 'the expression, with or without its ${ }')
    .option('--input <file>', 'a JSON file whose value is the context $ (- reads stdin)')
    .option(
      '--bind <name=value>',
      'a variable $name (repeatable): the value as JSON, or as text when it is not JSON',
      collect,
    )
    .option('--json', 'print {"status":"ok","result":...} or {"status":"failed","error":{...}} on stdout')
    .addHelpText(
      'after',
      `
The value is printed as JSON; an expression that gives nothing prints nothing. A syntax or evaluation
error points at its line and column inside the expression. The hints \`recipe validate\` gives inside
\${ } (W003 "==", W004 ".length", W008 "\${{ }}", W009 "steps.X.outputs", W010 "$$", W011 "$lenght")
are printed on stderr first (and as "warnings" with --json); they never change the exit code.

Exit codes: 0 ok, 1 the evaluation failed, 2 syntax error or unusable --input/--bind.

Examples:
  recipe eval '$sum([1, 2, 3])'
  recipe eval '$.items[qty > 1].sku' --input order.json
  recipe eval '$contacts.{ "email": $lowercase(properties.email) }' --bind contacts=@contacts.json
  curl -s https://example.com/data.json | recipe eval '$count(results)' --input -`,
    )
    .action(async (expression: string, flags: EvalFlags) => {
      process.exitCode = await evalCommand(expression, flags);
    });
}

async function evalCommand(raw: string, flags: EvalFlags): Promise<number> {
  const source = unwrap(raw);
  // The hints `recipe validate` gives inside ${ } (W003 for `==`, W011 for `$lenght`, ...), before the value.
  const hints = expressionHints(source, { bound: bindingNames(flags.bind ?? []), hasInput: flags.input !== undefined });
  for (const h of hints) process.stderr.write(`${h.file}:${h.line}:${h.column}: ${h.code} ${h.message}\n`);
  const warnings = hints.length > 0 ? { warnings: hints.map(warningJson) } : {};
  let result: unknown;
  try {
    const input = flags.input === undefined ? undefined : await readInput(flags.input);
    const bindings = await readBindings(flags.bind ?? []);
    result = await evaluateExpression(source, input, bindings);
  } catch (err) {
    const e =
      err instanceof RecipeError ? err : new RecipeError('X001', { message: (err as Error)?.message ?? String(err) });
    process.stderr.write(`${formatLocation(e.location)}${e.code} ${e.message}\n`);
    if (e.location?.line !== undefined && !flags.json)
      process.stderr.write(caret(source, e.location.line, e.location.column ?? 1));
    if (flags.json) {
      const where = e.location?.line !== undefined ? { line: e.location.line, column: e.location.column } : {};
      process.stdout.write(
        `${JSON.stringify({ status: 'failed', error: { code: e.code, message: e.message, ...where }, ...warnings }, null, 2)}\n`,
      );
    }
    return exitCodeFor(e.class);
  }
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify({ status: 'ok', ...(result !== undefined ? { result } : {}), ...warnings }, printable, 2)}\n`,
    );
  } else if (result !== undefined) {
    process.stdout.write(`${JSON.stringify(result, printable, 2)}\n`);
  }
  return ExitCode.ok;
}

/** The names --bind gives (the hints take them as defined). */
function bindingNames(pairs: readonly string[]): string[] {
  return pairs.map((pair) => pair.slice(0, Math.max(0, pair.indexOf('='))).replace(/^\$/, ''));
}

function warningJson(d: Diagnostic): Record<string, unknown> {
  return { code: d.code, message: d.message, line: d.line, column: d.column };
}

/** A recipe's `${ ... }` pasted as it is: the expression inside. */
function unwrap(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.startsWith('${') && trimmed.endsWith('}') ? trimmed.slice(2, -1) : raw;
}

async function readInput(file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (err) {
    throw new RecipeError('I001', { name: '--input', reason: `cannot read ${file}: ${(err as Error).message}` });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new RecipeError('I001', { name: '--input', reason: `${file} is not JSON: ${(err as Error).message}` });
  }
}

/** `name=value` pairs: the value as JSON, as text when it is not JSON, or a JSON file's content with `@file`. */
async function readBindings(pairs: readonly string[]): Promise<Record<string, unknown>> {
  const bindings: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = eq > 0 ? pair.slice(0, eq).replace(/^\$/, '') : '';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new RecipeError('I001', { name: pair, reason: 'expected --bind name=value' });
    const value = pair.slice(eq + 1);
    bindings[name] = value.startsWith('@') ? await readInput(value.slice(1)) : parseValue(value);
  }
  return bindings;
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The expression's line with a caret under the column. */
function caret(source: string, line: number, column: number): string {
  const text = source.split('\n')[line - 1] ?? '';
  return `  ${text}\n  ${' '.repeat(Math.max(0, column - 1))}^\n`;
}

/** JSON for the value: a function (a lambda the expression made) prints as "(function)". */
function printable(_key: string, value: unknown): unknown {
  return typeof value === 'function' ? '(function)' : value;
}
