import type {
  AssociationType,
  CatalogAction,
  CatalogEntity,
  CatalogType,
  ConnectorCatalog,
  JsonSchema,
} from './types.js';

/** Every type with its entities and their actions, one line per entity: what `recipe docs` prints first. */
export function renderCatalogIndex(catalog: ConnectorCatalog): string {
  const lines: string[] = [];
  for (const t of catalog.types) {
    lines.push(`${t.name} (connector: { definition: ${t.name} })`);
    const width = Math.max(...t.entities.map((e) => e.name.length));
    for (const e of t.entities) lines.push(`  ${e.name.padEnd(width)}  ${e.actions.map((a) => a.action).join(', ')}`);
    lines.push('');
  }
  lines.push(
    'recipe docs ENTITY lists its actions; recipe docs ENTITY.ACTION shows the params, paging and an example.',
  );
  return `${lines.join('\n')}\n`;
}

/** One entity: its actions (summary, read or write, paging), its properties, and its association types. */
export function renderEntity(type: CatalogType, entity: CatalogEntity): string {
  const lines = [`${entity.name} (${type.name})`, ''];
  const width = Math.max(...entity.actions.map((a) => a.action.length));
  for (const a of entity.actions) lines.push(`  ${a.action.padEnd(width)}  ${a.summary} [${traits(a)}]`);
  if (entity.properties) {
    lines.push('', `Properties create/update may set: ${entity.properties.writable.join(', ')}`);
    const readOnly = entity.properties.readable.filter((p) => !entity.properties?.writable.includes(p));
    if (readOnly.length > 0) lines.push(`Read-only (set by the connector): ${readOnly.join(', ')}`);
  }
  if (
    type.associationTypes &&
    (entity.name === type.associationEntity || type.associationTypes.some((r) => r.from === entity.name))
  )
    lines.push(
      '',
      ...renderAssociationTypes(
        type.associationTypes,
        entity.name === type.associationEntity ? undefined : entity.name,
      ),
    );
  lines.push('', `recipe docs ${entity.name}.ACTION shows an action's params and an example.`);
  return `${lines.join('\n')}\n`;
}

/** The association types (name and id per pair), all of them or those from one object type. */
export function renderAssociationTypes(rows: readonly AssociationType[], from?: string): string[] {
  const pairs = new Map<string, AssociationType[]>();
  for (const r of rows) {
    if (r.alias || (from !== undefined && r.from !== from)) continue;
    const key = `${r.from} → ${r.to}`;
    pairs.set(key, [...(pairs.get(key) ?? []), r]);
  }
  const width = Math.max(0, ...[...pairs.keys()].map((k) => k.length));
  const lines = [`Association types (associationTypeId takes the number or the name; category PLATFORM_DEFINED):`];
  for (const [pair, list] of pairs)
    lines.push(
      `  ${pair.padEnd(width)}  ${list.map((r) => `${r.name} ${r.typeId}${r.label ? ` (${r.label})` : ''}`).join(', ')}`,
    );
  return lines;
}

/** One action: what it does, whether it writes, how it pages, every param, and an example step. */
export function renderAction(type: CatalogType, action: CatalogAction): string {
  const lines = [`${action.entity}.${action.action} (${type.name})`, `  ${action.summary}`, `  ${traits(action)}`, ''];
  const params = action.params;
  const required = (params.required ?? []) as string[];
  lines.push(required.length > 0 ? `Params (required: ${required.join(', ')}):` : 'Params (none required):');
  const rows = paramRows(params, '');
  const width = Math.min(40, Math.max(0, ...rows.map((r) => r.name.length)));
  for (const r of rows) {
    lines.push(`  ${r.name.padEnd(width)}  ${r.shape}`);
    if (r.description) lines.push(`  ${' '.repeat(width)}  ${r.description}`);
  }
  for (const l of action.limits ?? []) lines.push(`  (${l.param} is at most ${l.maximum} when ${l.when} is given)`);
  if (type.associationTypes && action.action === 'create' && JSON.stringify(params).includes('associationTypeId'))
    lines.push(
      '',
      ...renderAssociationTypes(
        type.associationTypes,
        action.entity === type.associationEntity ? undefined : action.entity,
      ),
    );
  lines.push('', 'Example:', ...exampleStep(type, action).map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

function traits(a: CatalogAction): string {
  const paging =
    a.paging === null
      ? 'does not page'
      : `pages with params.${a.paging} (paginate follows it: give the first page's params only)`;
  return `${a.write ? 'writes (--dry-run does not send it)' : 'reads'}; ${paging}`;
}

interface ParamRow {
  readonly name: string;
  readonly shape: string;
  readonly description: string;
}

/** A row per param, nested maps and lists of maps flattened with dotted names (properties.email, types[].x). */
function paramRows(schema: JsonSchema, prefix: string): ParamRow[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const rows: ParamRow[] = [];
  for (const [name, sub] of Object.entries(props)) {
    const full = `${prefix}${name}`;
    const description = String(sub.description ?? '');
    if (sub.deprecated === true && sub.type === undefined) {
      rows.push({ name: full, shape: 'not accepted', description: description.replace(/^not accepted:\s*/i, '') });
      continue;
    }
    rows.push({ name: full, shape: shapeOf(sub, required.includes(name)), description });
    if (sub.properties) rows.push(...paramRows(sub, `${full}.`));
    const items = sub.items as JsonSchema | undefined;
    if (items?.properties) rows.push(...paramRows(items, `${full}[].`));
  }
  return rows;
}

/** `string, required, one of: A, B` / `integer, 1 to 100, default 25`. */
function shapeOf(s: JsonSchema, required: boolean): string {
  const parts: string[] = [];
  const type = Array.isArray(s.type) ? (s.type as string[]).join(' or ') : typeof s.type === 'string' ? s.type : 'any';
  parts.push(
    type === 'array' && (s.items as JsonSchema | undefined)?.type
      ? `list of ${String((s.items as JsonSchema).type)}`
      : type,
  );
  if (required) parts.push('required');
  if (Array.isArray(s.enum)) parts.push(`one of: ${s.enum.map((v) => (v === '' ? '""' : String(v))).join(', ')}`);
  if (typeof s.minimum === 'number' && typeof s.maximum === 'number') parts.push(`${s.minimum} to ${s.maximum}`);
  else if (typeof s.minimum === 'number') parts.push(`at least ${s.minimum}`);
  else if (typeof s.maximum === 'number') parts.push(`at most ${s.maximum}`);
  if (typeof s.maxItems === 'number') parts.push(`at most ${s.maxItems} items`);
  if (typeof s.maxLength === 'number') parts.push(`at most ${s.maxLength} characters`);
  if (typeof s.pattern === 'string') parts.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(', ');
}

/** A step using the action with its required params (example values where the schema gives them). */
function exampleStep(type: CatalogType, a: CatalogAction): string[] {
  const kind = a.action === 'download' ? 'download' : a.paging !== null && !a.write ? 'paginate' : 'execute';
  const params = exampleParams(a.params) as Record<string, unknown>;
  const limit = (a.params.properties as Record<string, JsonSchema> | undefined)?.limit;
  if (kind === 'paginate' && typeof limit?.maximum === 'number') params.limit = limit.maximum;
  const body: Record<string, unknown> = { entity: a.entity };
  if (a.action !== 'download') body.action = a.action;
  if (Object.keys(params).length > 0) body.params = params;
  if (kind === 'download') body.to = `out/${a.entity}.bin`;
  const step: Record<string, unknown> = { id: a.entity.replace(/\W/g, '_'), [kind]: body };
  if (type.name.toLowerCase() !== 'crm') step.connector = { definition: type.name };
  return toYaml([step], 0);
}

/** Example values: the schema's own examples, enum or default, else a placeholder named after the param. */
function exampleParams(schema: JsonSchema, name = 'value'): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of (schema.required ?? []) as string[]) if (props[key]) out[key] = exampleParams(props[key], key);
    return out;
  }
  if (type === 'array') return schema.items ? [exampleParams(schema.items as JsonSchema, name)] : [];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  // A property with a value rule (x-value) gets a value the rule accepts: the example must validate as it is.
  const rule = (schema as { 'x-value'?: unknown })['x-value'];
  if (rule === 'email') return `${name}@example.com`;
  if (rule === 'datetime') return '2026-01-15T09:00:00Z';
  if (rule === 'number' || rule === 'integer') return '1';
  return `<${name}>`;
}

/** Block YAML for plain data (what the examples need: maps, lists, scalars). */
function toYaml(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}[]`];
    return value.flatMap((item) => {
      const [first = '', ...rest] = toYaml(item, indent + 2);
      return [`${pad}- ${first.trimStart()}`, ...rest];
    });
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return [`${pad}{}`];
    return entries.flatMap(([k, v]) =>
      v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0)
        ? [`${pad}${k}:`, ...toYaml(v, indent + 2)]
        : [`${pad}${k}: ${scalar(v)}`],
    );
  }
  return [`${pad}${scalar(value)}`];
}

function scalar(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (v !== null && typeof v === 'object') return '{}';
  if (typeof v !== 'string') return JSON.stringify(v);
  // Plain when YAML reads it back as the same string; quoted otherwise (numbers, booleans, special characters).
  return /^[A-Za-z_][\w./-]*$/.test(v) && !/^(true|false|null|yes|no|on|off|~)$/i.test(v) ? v : JSON.stringify(v);
}
