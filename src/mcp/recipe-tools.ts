import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConnectorCatalog } from '../catalog/index.js';
import type { InputSpec } from '../compile/plan.js';
import { RecipeError } from '../errors/index.js';
import { checkRecipe } from '../run/index.js';
import { formatDiagnostic } from '../source/index.js';

/** A JSON Schema object, as MCP's tool definitions carry them. */
export type JsonSchema = { readonly type: 'object' } & Record<string, unknown>;

/** One recipe as an MCP tool. */
export interface RecipeTool {
  readonly name: string;
  readonly description: string;
  /** Absolute path of the recipe file. */
  readonly file: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
}

/** The argument every recipe tool takes besides the recipe's inputs. */
export const APPLY_ARG = 'apply';

/** Files of a recipe folder that are not recipes (tests and fixtures beside them). */
const NOT_RECIPES = /\.(test|fixtures)\.ya?ml$/;

/**
 * Every recipe of a folder (its *.yaml files, not *.test.yaml or *.fixtures.yaml), checked as `recipe validate`
 * checks it, as a tool. A recipe that does not pass stops the server before it starts (M005), so an agent never
 * sees a tool that cannot run.
 */
export async function loadRecipeTools(dir: string, catalog: ConnectorCatalog | undefined): Promise<RecipeTool[]> {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.ya?ml$/.test(n) && !NOT_RECIPES.test(n))
      .sort();
  } catch (err) {
    throw new RecipeError('M006', { flag: `--recipes ${dir}`, reason: (err as Error).message });
  }
  const tools: RecipeTool[] = [];
  for (const n of names) {
    const file = resolve(join(dir, n));
    const checked = await checkRecipe(file, catalog ? { catalog } : {});
    if (!checked.recipe)
      throw new RecipeError('M005', {
        file,
        message: `\n${checked.diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`,
      });
    const plan = checked.recipe.plan;
    tools.push({
      name: plan.name,
      description: `${plan.description ?? `Runs the recipe ${plan.name}.`} A dry run unless apply: true (writes listed, not sent).`,
      file,
      inputSchema: inputSchemaOf(plan.inputs),
      outputSchema: outputSchemaOf(Object.keys(plan.outputs)),
    });
  }
  return tools;
}

/** The recipe's inputs as a JSON Schema, plus `apply`. */
export function inputSchemaOf(inputs: Readonly<Record<string, InputSpec>>): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(inputs)) {
    properties[name] = {
      type: spec.type,
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      ...(spec.default !== undefined ? { default: spec.default } : {}),
      ...(spec.enum !== undefined ? { enum: spec.enum } : {}),
    };
    if (spec.required) required.push(name);
  }
  properties[APPLY_ARG] = {
    type: 'boolean',
    default: false,
    description:
      'Send the writes. Without it the call is a dry run: reads are live, writes are returned, not sent. Refused unless the server was started with --allow-writes.',
  };
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** What every recipe tool answers: the run, its outputs (by the recipe's output names) and its writes. */
export function outputSchemaOf(outputs: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      run_id: { type: 'string' },
      status: { type: 'string', enum: ['ok', 'failed', 'interrupted'] },
      dry_run: { type: 'boolean' },
      outputs: { type: 'object', properties: Object.fromEntries(outputs.map((o) => [o, {}])) },
      writes: {
        type: 'array',
        description: 'The writes of a dry run, not sent: each with its method, path and body.',
        items: { type: 'object' },
      },
      error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
    },
    required: ['run_id', 'status', 'dry_run', 'outputs', 'writes'],
  };
}
