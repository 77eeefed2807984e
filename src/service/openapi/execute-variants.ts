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

/**
 * The execute request body as a oneOf: one variant per connector type, entity and action, each with the
 * params schema that validates execute and, as x-result-schema, the schema of what comes back in result.
 */
export function executeBodySchema(types: readonly ConnectorType[]): Schema {
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
      ...(a.resultSchema && { 'x-result-schema': embeddable(a.resultSchema) }),
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
