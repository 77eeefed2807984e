import type { ConnectorType } from '../core/connector-type.js';

type Schema = Record<string, unknown>;

/** A schema embedded in the document: without $schema/$id, which would clash between embedded copies. */
export function embeddable(schema: Schema): Schema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return JSON.parse(JSON.stringify(rest)) as Schema;
}

const fieldList: Schema = {
  type: ['array', 'null'],
  maxItems: 200,
  items: { type: 'string', minLength: 1, maxLength: 300 },
};

/** What execute's `result` can be: one component per distinct result schema, and which actions answer each. */
export interface ResultSchemas {
  /** Component name → schema (components.schemas), e.g. `Result.contacts.list`. */
  readonly components: Readonly<Record<string, Schema>>;
  /** `<type id> <entity>.<action>` → its component's $ref. */
  readonly refOf: ReadonlyMap<string, string>;
}

const actionKey = (t: ConnectorType, entity: string, action: string) => `${t.definition.id} ${entity}.${action}`;

/**
 * The result schemas of every action, each distinct schema once (several actions answer the same shape),
 * named after the first action that answers it. The envelope's `result` is an anyOf of these, so a validator
 * or a generated client can use them; the request variants point at theirs with x-result-schema.
 */
export function resultSchemas(types: readonly ConnectorType[]): ResultSchemas {
  const components: Record<string, Schema> = {};
  const byText = new Map<string, string>();
  const refOf = new Map<string, string>();
  for (const t of types) {
    for (const a of t.actions) {
      if (!a.resultSchema) continue;
      const schema = embeddable(a.resultSchema);
      const text = JSON.stringify(schema);
      let name = byText.get(text);
      if (name === undefined) {
        name = `Result.${a.entity}.${a.action}`.replace(/[^A-Za-z0-9._-]/g, '_');
        if (Object.hasOwn(components, name)) name = `${name}.${t.definition.name.replace(/[^A-Za-z0-9._-]/g, '_')}`;
        components[name] = { title: `${a.entity}.${a.action} result`, ...schema };
        byText.set(text, name);
      }
      refOf.set(actionKey(t, a.entity, a.action), `#/components/schemas/${name}`);
    }
  }
  return { components, refOf };
}

/**
 * The execute request body as a oneOf: one variant per connector type, entity and action, each with the
 * params schema that validates execute and, as x-result-schema, a $ref to the schema of what comes back.
 */
export function executeBodySchema(types: readonly ConnectorType[], results: ResultSchemas): Schema {
  const variants = types.flatMap((t) =>
    t.actions.map((a) => ({
      title: `${t.definition.name}: ${a.entity}.${a.action}`,
      description: a.summary,
      type: 'object',
      required: ['entity', 'action', ...(a.requiredParams.length > 0 ? ['params'] : [])],
      additionalProperties: false,
      properties: {
        entity: { type: 'string', const: a.entity, enum: [a.entity], description: 'Entity to operate on.' },
        action: { type: 'string', const: a.action, enum: [a.action], description: 'Action to run.' },
        params: embeddable(a.paramsSchema),
        select_fields: {
          ...fieldList,
          description: 'Dotted fields to keep in result; exclude_fields is then ignored.',
        },
        exclude_fields: { ...fieldList, description: 'Dotted fields to drop from result (without select_fields).' },
        skip_truncation: { type: 'boolean', description: 'Accepted; nothing is truncated here.' },
        intent: { type: ['string', 'null'], maxLength: 512, description: 'Why the call is made (accepted, not kept).' },
      },
      'x-connector-type': t.definition.name,
      'x-source-definition-id': t.definition.id,
      'x-write': a.write,
      ...(results.refOf.has(actionKey(t, a.entity, a.action)) && {
        'x-result-schema': { $ref: results.refOf.get(actionKey(t, a.entity, a.action)) },
      }),
      ...(a.action === 'download' && {
        'x-response-content': 'raw bytes (application/octet-stream or the file type), no envelope',
      }),
    })),
  );
  return {
    description: "Which variant applies depends on the connector's type (see inspect); entity and action select it.",
    oneOf: variants.length > 0 ? variants : [{ type: 'object' }],
  };
}
