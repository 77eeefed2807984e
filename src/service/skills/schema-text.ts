/** Turns JSON Schemas (the ones that validate execute) into the words and tables of the skills docs. */
type Schema = Record<string, unknown>;

const asSchema = (v: unknown): Schema =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : {};

/** A short type name: "string", "integer", "array of string", "string or null", "enum". */
export function typeName(s: Schema): string {
  if (Array.isArray(s.enum)) return 'enum';
  if ('const' in s) return 'constant';
  const t = s.type;
  const one = (x: unknown) => (x === 'array' ? `array of ${typeName(asSchema(s.items))}` : String(x));
  if (Array.isArray(t)) return t.map(one).join(' or ');
  if (typeof t === 'string') return one(t);
  if (s.deprecated === true) return 'not accepted';
  return 'any';
}

/** The rules of one param: its description, allowed values, default and bounds. */
export function rules(s: Schema): string {
  const parts: string[] = [];
  if (typeof s.description === 'string') parts.push(s.description.replace(/\.\s*$/, ''));
  if (Array.isArray(s.enum)) parts.push(`one of: ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  if (typeof s.minimum === 'number') parts.push(`minimum ${s.minimum}`);
  if (typeof s.maximum === 'number') parts.push(`maximum ${s.maximum}`);
  if (typeof s.minLength === 'number' && s.minLength > 1) parts.push(`at least ${s.minLength} characters`);
  if (typeof s.maxLength === 'number') parts.push(`at most ${s.maxLength} characters`);
  if (typeof s.maxItems === 'number') parts.push(`at most ${s.maxItems} items`);
  if (typeof s.pattern === 'string') parts.push(`pattern ${s.pattern}`);
  if (typeof s.format === 'string') parts.push(`format ${s.format}`);
  return parts.length > 0 ? `${parts.join('; ')}.` : '';
}

/** Rows [name, type, required, rules] for a params schema, one level of nested objects included (properties.email). */
export function paramRows(schema: Schema): string[][] {
  const rows: string[][] = [];
  const walk = (s: Schema, prefix: string, depth: number) => {
    const props = asSchema(s.properties);
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    for (const [name, raw] of Object.entries(props)) {
      const p = asSchema(raw);
      rows.push([`${prefix}${name}`, typeName(p), required.includes(name) ? 'yes' : 'no', rules(p)]);
      if (depth < 1 && p.type === 'object' && p.properties) walk(p, `${prefix}${name}.`, depth + 1);
    }
  };
  walk(schema, '', 0);
  return rows;
}

/** Rows [field, type, description] describing a result schema's record fields. */
export function resultRows(schema: Schema): { shape: string; rows: string[][] } {
  const record = schema.type === 'array' ? asSchema(schema.items) : schema;
  const shape =
    schema.type === 'array'
      ? `an array of ${String(record.title ?? 'records')}`
      : schema.type === 'object'
        ? `one ${String(record.title ?? 'object')}`
        : typeName(schema);
  const rows = Object.entries(asSchema(record.properties)).map(([name, raw]) => {
    const p = asSchema(raw);
    return [name, typeName(p), typeof p.description === 'string' ? p.description : ''];
  });
  return { shape, rows };
}

/** An example value for a schema: examples, const, enum or default first, then a placeholder by type. */
export function exampleValue(s: Schema, name: string): unknown {
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (t) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [exampleValue(asSchema(s.items), name)];
    case 'object':
      return exampleParams(s);
    default:
      return /Id$/.test(name) ? `<${name}>` : `<${name}>`;
  }
}

/** Example params: every required param, plus a small limit where the action pages. */
export function exampleParams(schema: Schema): Record<string, unknown> {
  const props = asSchema(schema.properties);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = exampleValue(asSchema(props[name]), name);
  if ('limit' in props && !required.includes('limit')) out.limit = 10;
  return out;
}
