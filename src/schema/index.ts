/** schema/: recipe structure against schemas/recipe.schema.json. The only engine-side user of ajv. */
import { dedupeDiagnostics, type Diagnostic } from '../errors/index.js';
import { makeDiagnostic, type Locator } from '../source/index.js';
import { recipeSchema, recipeValidator } from './ajv.js';
import { isStepPointer } from './describe.js';
import { mapError } from './map-errors.js';
import { checkStepKinds } from './step-kinds.js';

export { recipeSchemaText, recipeSchema, RECIPE_SCHEMA_URL } from './ajv.js';
export { KIND_KEYS } from './step-kinds.js';
export { validateTestDocument, RECIPE_TEST_SCHEMA_URL } from './test-schema.js';
export {
  compileJsonSchema,
  triggerFileCheck,
  TRIGGER_SCHEMA_URL,
  type SchemaCheck,
  type SchemaProblem,
} from './json-schema-check.js';

let stepFields: ReadonlySet<string> | undefined;

/** Every field name a step may carry (common fields and each kind's own), read from the schema. */
function allStepFields(): ReadonlySet<string> {
  if (!stepFields) {
    const defs = recipeSchema().$defs as Record<string, { properties?: Record<string, unknown> }>;
    const names = new Set<string>();
    for (const [name, def] of Object.entries(defs))
      if (name.endsWith('Step')) for (const p of Object.keys(def.properties ?? {})) names.add(p);
    stepFields = names;
  }
  return stepFields;
}

/**
 * Validates a document's structure against the recipe schema (all errors), each problem mapped to its YAML
 * node. Steps with a wrong set of kind keys get one diagnostic instead of the schema's branch failures.
 */
export function validateRecipeDocument(value: unknown, locator: Locator, file: string): Diagnostic[] {
  const validate = recipeValidator();
  if (validate(value)) return [];
  const kindProblems = checkStepKinds(value, allStepFields(), locator, file);
  const badSteps = new Set(kindProblems.map((p) => p.pointer));
  const out: Diagnostic[] = kindProblems.map((p) => p.diagnostic);
  const connectorsReported = new Set<string>();
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'if') continue; // the `then` branch's own errors say what is wrong
    if (badSteps.has(error.instancePath)) continue;
    if (isStepPointer(error.instancePath) && error.schemaPath.includes('/oneOf')) continue; // kind count: checkStepKinds
    if (
      (/(^|\/)connector$/.test(error.instancePath) && /\/(oneOf|not)\b/.test(error.schemaPath)) ||
      error.schemaPath.includes('connectorRef/oneOf')
    ) {
      if (!connectorsReported.has(error.instancePath)) {
        connectorsReported.add(error.instancePath);
        const where = error.instancePath === '/connector' ? 'connector' : 'step connector';
        out.push(
          makeDiagnostic(
            'S011',
            { where },
            { file, ...locator.locate(error.instancePath), pointer: error.instancePath },
          ),
        );
      }
      continue;
    }
    // call: a string, or the git or npm object form: only the errors of the form the value has.
    if (error.schemaPath.includes('/properties/call/oneOf')) {
      if (error.keyword === 'type') continue;
      const call = valueAt(value, error.instancePath.replace(/\/call\/.*$/, '/call'));
      if (error.keyword === 'oneOf' && isStringOrMap(call)) continue;
      // The object forms are told apart by their first key: report only the errors of the one written.
      const form = call !== null && typeof call === 'object' && !Array.isArray(call) ? ('npm' in call ? 2 : 1) : 0;
      if (form !== 0 && !error.schemaPath.includes(`/call/oneOf/${form}`)) continue;
    }
    if (error.propertyName !== undefined) continue; // reported by the propertyNames error that follows it
    const diagnostic = mapError(error, value, locator, file);
    if (diagnostic) out.push(diagnostic);
  }
  return dedupeDiagnostics(out);
}

function valueAt(doc: unknown, pointer: string): unknown {
  let at: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object') return undefined;
    at = Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

function isStringOrMap(v: unknown): boolean {
  return typeof v === 'string' || (v !== null && typeof v === 'object' && !Array.isArray(v));
}
