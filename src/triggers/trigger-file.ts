import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { RecipeError } from '../errors/index.js';
import { compileValue, type Value } from '../expr/index.js';
import { compileJsonSchema, triggerFileCheck, type SchemaCheck } from '../schema/index.js';
import { formatDiagnostic, loadSource } from '../source/index.js';
import { DEFAULT_TOLERANCE_S } from './signature.js';

/** Default body limit of a delivery: 64 KiB (webhook senders post events, not files). */
export const DEFAULT_MAX_BODY = 65_536;

/** Default deliveries a trigger accepts per minute. */
export const DEFAULT_RATE_PER_MINUTE = 60;

/** A trigger file, checked and compiled: what the server needs to answer a delivery. */
export interface Trigger {
  readonly name: string;
  /** The trigger file (as given on the command line, for messages). */
  readonly file: string;
  /** Absolute path of the recipe file. */
  readonly recipe: string;
  /** undefined: `signature: none` (unsigned, as the file says explicitly). */
  readonly secretEnv?: string;
  readonly toleranceS: number;
  readonly payload?: SchemaCheck;
  /** The recipe's inputs as compiled templates over $payload, $headers and $trigger. */
  readonly inputs: Readonly<Record<string, Value>>;
  readonly dryRun: boolean;
  /** `runs_on`: in the triggers process, or enqueued for the fleet's workers. */
  readonly runsOn: 'local' | 'fleet';
  readonly maxBody: number;
  readonly ratePerMinute: number;
  readonly callback?: { readonly url: string; readonly secretEnv?: string; readonly attempts: number };
}

interface TriggerDoc {
  name?: string;
  recipe: string;
  signature: 'none' | { secret_env: string; tolerance_seconds?: number };
  payload?: Record<string, unknown>;
  inputs?: Record<string, unknown>;
  dry_run?: boolean;
  runs_on?: 'local' | 'fleet';
  max_body_bytes?: number;
  rate_limit_per_minute?: number;
  callback?: { url: string; secret_env?: string; attempts?: number };
}

/**
 * Reads every `*.yaml`/`*.yml` file of a folder as a trigger (schemas/trigger.schema.json). Every problem of
 * every file is collected and thrown together as one G002 error, naming file:line:col and the field, so a
 * server never starts with half of its triggers.
 */
export async function loadTriggers(dir: string): Promise<Trigger[]> {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.ya?ml$/.test(n))
      .sort();
  } catch (err) {
    throw new RecipeError('G006', { flag: `--dir ${dir}`, reason: (err as Error).message });
  }
  const problems: string[] = [];
  const triggers: Trigger[] = [];
  const seen = new Map<string, string>();
  const structure = await triggerFileCheck();
  for (const n of names) {
    const file = join(dir, n);
    const t = await loadTrigger(file, structure, problems);
    if (!t) continue;
    const other = seen.get(t.name);
    if (other !== undefined) problems.push(`G003 ${new RecipeError('G003', { file, name: t.name, other }).message}`);
    seen.set(t.name, file);
    triggers.push(t);
  }
  if (problems.length > 0) throw new RecipeError('G002', { file: dir, message: `\n${problems.join('\n')}` });
  return triggers;
}

async function loadTrigger(file: string, structure: SchemaCheck, problems: string[]): Promise<Trigger | undefined> {
  const source = await loadSource(file);
  if (source.value === undefined || source.diagnostics.length > 0) {
    problems.push(...source.diagnostics.map((d) => formatDiagnostic(d)));
    return undefined;
  }
  const at = (pointer: string): string => {
    const p = source.locator.has(pointer) ? source.locator.locate(pointer) : { line: 1, column: 1 };
    return `${file}:${p.line}:${p.column}`;
  };
  const structural = structure(source.value);
  if (structural.length > 0) {
    // oneOf reports each branch; the first problem per field is the readable one.
    const byField = new Map<string, string>();
    for (const p of structural) if (!byField.has(p.pointer)) byField.set(p.pointer, p.message);
    for (const [pointer, message] of byField) problems.push(`${at(pointer)}: G002 ${pointer}: ${message}`);
    return undefined;
  }
  const doc = source.value as TriggerDoc;
  let payload: SchemaCheck | undefined;
  if (doc.payload) {
    try {
      payload = await compileJsonSchema(doc.payload);
    } catch (err) {
      problems.push(`${at('/payload')}: G002 /payload is not a valid JSON Schema: ${(err as Error).message}`);
    }
  }
  const inputs: Record<string, Value> = {};
  for (const [name, raw] of Object.entries(doc.inputs ?? {})) {
    const pointer = `/inputs/${name}`;
    const compiled = compileValue(raw, { file, pointer, locate: (p) => source.locator.locate(p) });
    for (const d of compiled.diagnostics) problems.push(formatDiagnostic(d));
    inputs[name] = compiled.value;
  }
  const signature = doc.signature;
  return {
    name: doc.name ?? basename(file).replace(/\.ya?ml$/, ''),
    file,
    recipe: resolve(dirname(file), doc.recipe),
    ...(signature !== 'none' ? { secretEnv: signature.secret_env } : {}),
    toleranceS: signature !== 'none' ? (signature.tolerance_seconds ?? DEFAULT_TOLERANCE_S) : DEFAULT_TOLERANCE_S,
    ...(payload ? { payload } : {}),
    inputs,
    dryRun: doc.dry_run === true,
    runsOn: doc.runs_on ?? 'local',
    maxBody: doc.max_body_bytes ?? DEFAULT_MAX_BODY,
    ratePerMinute: doc.rate_limit_per_minute ?? DEFAULT_RATE_PER_MINUTE,
    ...(doc.callback
      ? {
          callback: {
            url: doc.callback.url,
            ...(doc.callback.secret_env !== undefined ? { secretEnv: doc.callback.secret_env } : {}),
            attempts: doc.callback.attempts ?? 5,
          },
        }
      : {}),
  };
}
