import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from './search.js';

/**
 * The params schema of context_store_search for an entity with these searchable fields. It checks the
 * outer shape only; the filter tree is validated by the search itself, which names the exact path of
 * each problem (params.query.filter.and[1].eq[...]) — something a JSON Schema error cannot do well.
 */
export function contextStoreSearchParamsSchema(
  entity: string,
  searchableFields: readonly string[],
): Record<string, unknown> {
  const fieldList = searchableFields.join(', ');
  return {
    title: `${entity}.context_store_search params`,
    description: `Searches the service's pre-indexed copy of ${entity}. Works once the entity's context store is Preview or Ready (409 context_store_not_ready before).`,
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: {
        type: 'object',
        description: 'Filter and sort conditions.',
        additionalProperties: false,
        properties: {
          filter: {
            type: 'object',
            description: `A condition {operator: {field: value}}. Operators: eq, neq, gt, gte, lt, lte, in, like, fuzzy, keyword, contains, any, not, and, or; several operators in one object are ANDed. Searchable fields: ${fieldList}.`,
          },
          sort: {
            type: 'array',
            maxItems: 5,
            description: `Sort conditions [{field: "asc"|"desc"}], applied in order, ties broken by id. Sortable fields: the non-array searchable fields.`,
            items: {
              type: 'object',
              minProperties: 1,
              maxProperties: 1,
              additionalProperties: { enum: ['asc', 'desc'] },
              description: 'One field and its direction.',
            },
          },
        },
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMIT_MAX,
        default: SEARCH_LIMIT_DEFAULT,
        description: `Maximum records per page (default ${SEARCH_LIMIT_DEFAULT}, maximum ${SEARCH_LIMIT_MAX}).`,
      },
      cursor: {
        type: 'string',
        minLength: 1,
        description: 'meta.cursor (= connector_metadata.end_cursor) of the previous page, with the same query.',
      },
      fields: {
        type: 'array',
        minItems: 1,
        maxItems: 200,
        items: { type: 'string', minLength: 1 },
        description:
          'Dotted field paths to include in each record (e.g. "id", "properties.email"); all searchable fields when omitted.',
      },
    },
  };
}

/** The result schema of context_store_search (inside the envelope's result). */
export const contextStoreSearchResultSchema: Record<string, unknown> = {
  type: 'object',
  required: ['data', 'meta'],
  description: 'One page of matching records and the paging state.',
  properties: {
    data: {
      type: 'array',
      description: 'Matching records with their searchable fields (or the requested fields).',
      items: { type: 'object' },
    },
    meta: {
      type: 'object',
      required: ['has_more', 'cursor', 'took_ms'],
      properties: {
        has_more: { type: 'boolean', description: 'True when another page follows.' },
        cursor: {
          type: ['string', 'null'],
          description: 'Send as params.cursor to read the next page; null on the last page.',
        },
        took_ms: { type: ['number', 'null'], description: 'Time the search took in the service, in milliseconds.' },
      },
    },
  },
};
