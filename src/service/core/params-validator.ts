import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ServiceError } from './errors.js';
import { ajvErrorsToItems } from './validation-items.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/**
 * The service's ajv (draft 2020-12, every error collected, formats checked, schema defaults filled in).
 * The only user of ajv on the service side: execute params and fixture files go through here. Ajv keeps
 * each compiled schema keyed by the schema object, so compiling the same object again is a lookup.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true });
addFormats(ajv);

/** Compiles a schema once (ajv remembers it by object identity). */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  return ajv.compile(schema);
}

/**
 * Validates a value against a schema; throws H400 with one errors[] item per problem, each field
 * prefixed (e.g. "params.properties.email"). Defaults from the schema are filled into the value.
 */
export function validateAgainst(schema: Record<string, unknown>, value: unknown, prefix: string): void {
  validateWith(compileSchema(schema), value, prefix);
}

/** validateAgainst with a validator compiled already. */
export function validateWith(validate: ValidateFunction, value: unknown, prefix: string): void {
  if (validate(value)) return;
  const items = ajvErrorsToItems(validate.errors ?? [], prefix);
  throw new ServiceError(
    'H400_INVALID_PARAMS',
    { what: prefix || 'value', problems: items.map((i) => i.message).join('; ') },
    { items },
  );
}
