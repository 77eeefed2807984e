import type { Diagnostic } from '../errors/index.js';
import { didYouMean, makeDiagnostic, type Locator } from '../source/index.js';
import type { ErrorObject } from './ajv.js';
import { at, describeNodeAt, isStepPointer, stepKind } from './describe.js';

/** Turns one ajv error into a diagnostic a person understands, at the YAML node it is about (or nothing). */
export function mapError(e: ErrorObject, doc: unknown, locator: Locator, file: string): Diagnostic | undefined {
  const pointer = e.instancePath;
  const where = describeNodeAt(doc, pointer);
  const valueLoc = () => ({ file, ...locator.locate(pointer), pointer });
  const keyLoc = (p: string) => ({ file, ...locator.locateKey(p), pointer: p });
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return makeDiagnostic('S005', { where, field: params.missingProperty }, keyLoc(pointer));
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const p = `${pointer}/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return makeDiagnostic('S006', { where, field, hint: unknownFieldHint(field, e, doc, pointer) }, keyLoc(p));
    }
    case 'type': {
      const expected = [params.type]
        .flat()
        .map((t) => yamlType(String(t)))
        .join(' or ');
      const actual = at(doc, pointer);
      // A `${ }` where the language takes a value as written (max_items, timeout_ms, ...): say that.
      if (typeof actual === 'string' && actual.includes('${'))
        return makeDiagnostic('S012', { where, expected }, valueLoc());
      return makeDiagnostic('S007', { where, expected, actual: yamlType(jsonType(actual)) }, valueLoc());
    }
    case 'enum':
      return makeDiagnostic(
        'S008',
        {
          where,
          allowed: (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', '),
          actual: JSON.stringify(at(doc, pointer)),
        },
        valueLoc(),
      );
    case 'const':
      return makeDiagnostic(
        'S008',
        { where, allowed: JSON.stringify(params.allowedValue), actual: JSON.stringify(at(doc, pointer)) },
        valueLoc(),
      );
    case 'pattern':
      if (pointer === '/name') return makeDiagnostic('S010', { actual: String(at(doc, pointer)) }, valueLoc());
      return makeDiagnostic('S009', { where, rule: patternRule(String(params.pattern), at(doc, pointer)) }, valueLoc());
    case 'propertyNames': {
      const name = String(params.propertyName);
      const p = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return makeDiagnostic(
        'S009',
        { where, rule: `"${name}" is not a valid name (letters, digits and _, not starting with a digit)` },
        keyLoc(p),
      );
    }
    case 'minItems':
    case 'minLength':
    case 'minProperties':
      return makeDiagnostic(
        'S009',
        {
          where,
          rule:
            Number(params.limit) === 1
              ? 'must not be empty'
              : `must have at least ${String(params.limit)} ${e.keyword === 'minLength' ? 'characters' : 'entries'}`,
        },
        valueLoc(),
      );
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'maxLength':
      return makeDiagnostic(
        'S009',
        { where, rule: `${e.message ?? 'out of range'}, got ${JSON.stringify(at(doc, pointer))}` },
        valueLoc(),
      );
    case 'uniqueItems':
      return makeDiagnostic(
        'S009',
        { where, rule: `${JSON.stringify((at(doc, pointer) as unknown[])[Number(params.i)])} is listed twice` },
        valueLoc(),
      );
    case 'dependentRequired':
      return makeDiagnostic(
        'S009',
        { where, rule: `"${String(params.property)}" needs "${String(params.missingProperty)}" beside it` },
        keyLoc(`${pointer}/${String(params.property)}`),
      );
    case 'not': {
      // The schema's way of saying "not both": {not: {required: [a, b]}} (http's json and body).
      const both = (e.schema as { required?: unknown } | undefined)?.required;
      if (Array.isArray(both) && both.length === 2) {
        const [first, second] = both.map(String);
        return makeDiagnostic(
          'S009',
          { where, rule: `give "${first}" or "${second}", not both` },
          keyLoc(`${pointer}/${second}`),
        );
      }
      return makeDiagnostic('S001', { message: `${where}: ${e.message ?? e.keyword}` }, valueLoc());
    }
    default:
      return makeDiagnostic('S001', { message: `${where}: ${e.message ?? e.keyword}` }, valueLoc());
  }
}

function unknownFieldHint(field: string, e: ErrorObject, doc: unknown, pointer: string): string {
  const properties = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const suggestion = didYouMean(field, Object.keys(properties));
  if (suggestion) return suggestion;
  if (isStepPointer(pointer)) {
    const kind = stepKind(doc, pointer);
    const body = kind ? at(doc, `${pointer}/${kind}`) : undefined;
    const inner = kind ? KIND_OBJECT_FIELDS[kind] : undefined;
    if (inner?.includes(field) && body !== null && typeof body === 'object') return ` (it belongs inside "${kind}:")`;
  }
  return '';
}

/** Fields of the execute/paginate/download/http objects, to explain a field written beside the kind key. */
const KIND_OBJECT_FIELDS: Record<string, readonly string[]> = {
  execute: ['entity', 'action', 'params', 'wait_for_context_store'],
  paginate: ['entity', 'action', 'params', 'max_pages', 'max_items', 'next', 'wait_for_context_store'],
  download: ['entity', 'action', 'params', 'to'],
  http: ['method', 'url', 'query', 'headers', 'json', 'body', 'success_status'],
};

/** The schema's pattern for fields whose string form must be a single expression (when, foreach, params...). */
const EXPRESSION_PATTERN = '^\\s*\\$\\{[\\s\\S]*\\}\\s*$';

function patternRule(pattern: string, value: unknown): string {
  if (pattern === EXPRESSION_PATTERN) return `must be one \${ ... } expression here, got ${JSON.stringify(value)}`;
  if (pattern === '^[A-Za-z_][A-Za-z0-9_]*$')
    return `"${String(value)}" is not a valid name (letters, digits and _, not starting with a digit)`;
  return `"${String(value)}" does not match ${pattern}`;
}

const YAML_TYPES: Record<string, string> = {
  object: 'a map',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'an empty value',
};

/** A JSON Schema type name as a person writing YAML says it. */
function yamlType(type: string): string {
  return YAML_TYPES[type] ?? type;
}

/** The JSON type of a value. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
