import type { CompiledExpr, Value } from '../expr/index.js';
import type { ErrorCode } from '../errors/index.js';
import { hintFor, listNames } from './names.js';
import type { CatalogAction, CatalogEntity, JsonSchema } from './types.js';
import { valueKindRule } from './value-kinds.js';

/** A place inside params: member keys and item indexes. */
export type ParamPath = readonly (string | number)[];

/** One problem with a call's params, at a path inside them (the engine maps it to a file position). */
export interface ParamProblem {
  readonly code: ErrorCode;
  /** What fills the code's template. */
  readonly params: Record<string, unknown>;
  readonly path: ParamPath;
  /** Whether the problem is the member's key (unknown, not accepted) or its value. */
  readonly at: 'key' | 'value';
  /** Where in a string value, when the problem is a part of it (a name in a comma separated list). */
  readonly offset?: number;
}

/**
 * Checks params against the action's schema as far as they are known before the run: every literal fully,
 * the keys of maps and the item counts of lists that hold expressions, the text of templates (always a
 * string). An expression's value is unknown, so nothing is said about it: no false positives. Keywords the
 * checker does not know are skipped for the same reason. Given a literal Value (the computed params of a
 * dry-run write), this is a full check with the service's semantics.
 */
export function checkParams(action: CatalogAction, params: Value, entity?: CatalogEntity): ParamProblem[] {
  const out: ParamProblem[] = [];
  const walker = new Walker(action, out, entity?.properties);
  walker.node(params, action.params, []);
  walker.limits(params);
  return out;
}

/** `tasks.create params.properties.hs_task_title`: how messages name a place inside params. */
export function describePath(action: { entity: string; action: string }, path: ParamPath): string {
  return `${action.entity}.${action.action} ${fieldPath(path)}`;
}

/** `params.associations[0].to.id`: a place inside params as the service's error fields name it. */
export function fieldPath(path: ParamPath): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : `${acc}.${seg}`), 'params');
}

type Members = ReadonlyMap<string, Value>;

class Walker {
  constructor(
    private readonly action: CatalogAction,
    private readonly out: ParamProblem[],
    private readonly properties?: CatalogEntity['properties'],
  ) {}

  node(v: Value, schema: JsonSchema, path: ParamPath): void {
    switch (v.kind) {
      case 'expr':
        return;
      case 'template':
        return this.template(v.parts, schema, path);
      case 'object':
        return this.object(new Map(Object.entries(v.entries)), schema, path);
      case 'array':
        return this.array(v.items, schema, path);
      case 'literal': {
        const value = v.value;
        if (Array.isArray(value))
          return this.array(
            value.map((item) => literal(item)),
            schema,
            path,
          );
        if (value !== null && typeof value === 'object')
          return this.object(new Map(Object.entries(value).map(([k, m]) => [k, literal(m)])), schema, path);
        return this.scalar(value, schema, path);
      }
    }
  }

  /** The propertiesWithHistory rule: a maximum the service applies beyond the schema. */
  limits(params: Value): void {
    const members = membersOf(params);
    if (!members) return;
    for (const limit of this.action.limits ?? []) {
      const when = members.get(limit.when);
      const value = members.get(limit.param);
      // Only a literal, non-empty `when` is sure to be sent.
      if (when?.kind !== 'literal' || when.value === '' || when.value === null || value?.kind !== 'literal') continue;
      if (typeof value.value === 'number' && value.value > limit.maximum)
        this.problem('A007', [limit.param], {
          rule: `must be at most ${limit.maximum} when ${limit.when} is given, got ${JSON.stringify(value.value)}`,
        });
    }
  }

  private problem(code: ErrorCode, path: ParamPath, params: Record<string, unknown>, at: 'key' | 'value' = 'value') {
    this.out.push({ code, params: { where: describePath(this.action, path), ...params }, path, at });
  }

  private typeOk(schema: JsonSchema, actual: string, path: ParamPath): boolean {
    const allowed = typesOf(schema);
    if (!allowed || allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'))) return true;
    this.problem('A005', path, { expected: allowed.map(typeName).join(' or '), actual: typeName(actual) });
    return false;
  }

  private object(members: Members, schema: JsonSchema, path: ParamPath): void {
    if (!this.typeOk(schema, 'object', path)) return;
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = (schema.required ?? []) as string[];
    const missing = required.filter((r) => !members.has(r));
    for (const name of missing) this.problem('A003', path, { what: memberWord(path), name }, 'value');
    for (const [key, member] of members) {
      const sub = props[key];
      if (sub !== undefined) {
        if (sub.deprecated === true && sub.type === undefined) this.notAccepted(key, sub, path);
        else this.node(member, sub, [...path, key]);
        continue;
      }
      const extra = schema.additionalProperties;
      if (extra === false) this.unknown(key, props, missing, path);
      else if (extra !== undefined && typeof extra === 'object') this.node(member, extra as JsonSchema, [...path, key]);
    }
    // Members whose expression gives nothing are left out, so only the others are sure to be sent.
    const sure = [...members.values()].filter((m) => m.kind !== 'expr').length;
    if (typeof schema.minProperties === 'number' && members.size < schema.minProperties)
      this.problem('A007', path, {
        rule: `must have at least ${schema.minProperties} ${plural(schema.minProperties, 'entry', 'entries')}`,
      });
    if (typeof schema.maxProperties === 'number' && sure > schema.maxProperties)
      this.problem('A007', path, {
        rule: `must have at most ${schema.maxProperties} ${plural(schema.maxProperties, 'entry', 'entries')}`,
      });
  }

  private unknown(key: string, props: Record<string, JsonSchema>, missing: string[], path: ParamPath): void {
    const what = memberWord(path);
    const names = Object.keys(props).filter((n) => props[n]?.deprecated !== true);
    const hint =
      (what === 'property' ? propertyHint(key, this.action, this.properties) : undefined) ??
      hintFor(key, names, missing, (n) => String(props[n]?.description ?? ''));
    this.problem('A004', [...path, key], { what, name: key, hint, allowed: listNames(names) }, 'key');
  }

  private notAccepted(key: string, sub: JsonSchema, path: ParamPath): void {
    const reason = String(sub.description ?? 'the connector refuses it').replace(/^not accepted:\s*/i, '');
    this.problem('A008', [...path, key], { reason }, 'key');
  }

  private array(items: readonly Value[], schema: JsonSchema, path: ParamPath): void {
    if (!this.typeOk(schema, 'array', path)) return;
    if (typeof schema.minItems === 'number' && items.length < schema.minItems)
      this.problem('A007', path, {
        rule: schema.minItems === 1 ? 'must not be empty' : `must have at least ${schema.minItems} items`,
      });
    if (typeof schema.maxItems === 'number' && items.length > schema.maxItems)
      this.problem('A007', path, {
        rule: `must have at most ${schema.maxItems} ${plural(schema.maxItems, 'item', 'items')}, got ${items.length}`,
      });
    const itemSchema = schema.items;
    if (itemSchema !== undefined && typeof itemSchema === 'object')
      items.forEach((item, i) => this.node(item, itemSchema as JsonSchema, [...path, i]));
  }

  /** Text around `${ }`: a string whose literal parts are known. */
  private template(parts: readonly (string | CompiledExpr)[], schema: JsonSchema, path: ParamPath): void {
    if (!this.typeOk(schema, 'string', path)) return;
    const allowed = schema.enum as unknown[] | undefined;
    if (!allowed) return;
    const shape = new RegExp(
      `^${parts.map((p) => (typeof p === 'string' ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '[\\s\\S]*')).join('')}$`,
    );
    if (!allowed.some((v) => typeof v === 'string' && shape.test(v)))
      this.problem('A006', path, {
        allowed: allowed.map((v) => JSON.stringify(v)).join(', '),
        actual: templateText(parts),
      });
  }

  private scalar(value: unknown, schema: JsonSchema, path: ParamPath): void {
    if (!this.typeOk(schema, jsonType(value), path)) return;
    const allowed = schema.enum as unknown[] | undefined;
    if (allowed && !allowed.some((v) => JSON.stringify(v) === JSON.stringify(value))) {
      this.problem('A006', path, {
        allowed: allowed.map((v) => JSON.stringify(v)).join(', '),
        actual: JSON.stringify(value),
      });
      return;
    }
    if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
      this.problem('A006', path, { allowed: JSON.stringify(schema.const), actual: JSON.stringify(value) });
      return;
    }
    const rule =
      (typeof value === 'number'
        ? numberRule(value, schema)
        : typeof value === 'string'
          ? stringRule(value, schema)
          : null) ?? valueKindRule(value, schema['x-value']);
    if (rule) this.problem('A007', path, { rule });
  }
}

/** Why a CRM property the entity has is refused here: set only on create, or never (read-only). */
function propertyHint(
  name: string,
  action: CatalogAction,
  properties: CatalogEntity['properties'],
): string | undefined {
  if (!properties) return undefined;
  if (properties.writable.includes(name) && action.action !== 'create') return ' (it can be set only on create)';
  if (properties.readable.includes(name) && !properties.writable.includes(name))
    return ' (it is read-only: the connector sets it)';
  return undefined;
}

/** What a member of the map at `path` is called: a param (top level), a CRM property, else a field. */
function memberWord(path: ParamPath): string {
  if (path.length === 0) return 'param';
  return path[path.length - 1] === 'properties' ? 'property' : 'field';
}

function literal(value: unknown): Value {
  return { kind: 'literal', value };
}

/** The members of a params Value that is a map (literal or with expressions inside). */
export function membersOf(v: Value): Members | undefined {
  if (v.kind === 'object') return new Map(Object.entries(v.entries));
  if (v.kind === 'literal' && v.value !== null && typeof v.value === 'object' && !Array.isArray(v.value))
    return new Map(Object.entries(v.value).map(([k, m]) => [k, literal(m)]));
  return undefined;
}

function numberRule(n: number, s: JsonSchema): string | null {
  const got = `, got ${JSON.stringify(n)}`;
  if (typeof s.minimum === 'number' && n < s.minimum) return `must be at least ${s.minimum}${got}`;
  if (typeof s.maximum === 'number' && n > s.maximum) return `must be at most ${s.maximum}${got}`;
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum)
    return `must be more than ${s.exclusiveMinimum}${got}`;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum)
    return `must be less than ${s.exclusiveMaximum}${got}`;
  if (typeof s.multipleOf === 'number' && !Number.isInteger(n / s.multipleOf))
    return `must be a multiple of ${s.multipleOf}${got}`;
  return null;
}

function stringRule(text: string, s: JsonSchema): string | null {
  // Like ajv, lengths count code points, and patterns are unicode regular expressions.
  const length = [...text].length;
  if (typeof s.minLength === 'number' && length < s.minLength)
    return s.minLength === 1 ? 'must not be empty' : `must have at least ${s.minLength} characters, got ${length}`;
  if (typeof s.maxLength === 'number' && length > s.maxLength)
    return `must have at most ${s.maxLength} characters, got ${length}`;
  if (typeof s.pattern === 'string' && !safeRegExp(s.pattern)?.test(text))
    return safeRegExp(s.pattern) ? `${JSON.stringify(text)} does not match the pattern ${s.pattern}` : null;
  return null;
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function typesOf(schema: JsonSchema): string[] | undefined {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? (t as string[]) : undefined;
}

/** The JSON Schema type of a JSON value. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'a map',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'an empty value',
};

/** A JSON Schema type name as a person writing YAML says it (as the S diagnostics do). */
function typeName(type: string): string {
  return TYPE_NAMES[type] ?? type;
}

function templateText(parts: readonly (string | CompiledExpr)[]): string {
  return JSON.stringify(parts.map((p) => (typeof p === 'string' ? p : `\${${p.source}}`)).join(''));
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
