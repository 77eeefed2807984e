/** Reusable JSON Schema fragments of the CRM params and results (draft 2020-12). */

export const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
export type Json = Record<string, unknown>;

export const str = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });
export const bool = (description: string, extra: Json = {}): Json => ({ type: 'boolean', description, ...extra });
export const int = (description: string, extra: Json = {}): Json => ({ type: 'integer', description, ...extra });

/** Builds an object schema with additionalProperties false. */
export function obj(properties: Record<string, Json>, required: string[] = [], extra: Json = {}): Json {
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...extra,
  };
}

export const afterParam = str(
  'Paging cursor: connector_metadata.end_cursor of the previous page (a numeric string). The CRM pages with `after`, not `cursor`.',
  {
    pattern: '^[0-9]{1,15}$',
    examples: ['26'],
  },
);
/** `cursor` is listed so its rejection can name `after` (the spec's "connector that rejects cursor"). */
export const cursorParam: Json = {
  description: 'Not accepted: the CRM connector rejects params.cursor with a 400; page with `after` instead.',
  deprecated: true,
};
export const propertiesParam = str(
  'Comma separated property names to return; unknown names are ignored; a known property without a value comes back as null.',
  { examples: ['firstname,lastname,email'] },
);
export const historyParam = str(
  'Comma separated property names to return with their value history (newest first); lowers the maximum page size to 50.',
  { examples: ['lifecyclestage'] },
);
export const associationsParam = str(
  'Comma separated object types whose associated record ids are included (contacts, companies, deals, tickets, notes, calls, emails, meetings, tasks, or a custom object type id / fully qualified name); unknown ones are ignored.',
  { examples: ['companies,deals'] },
);
export const archivedParam = bool('When true, only archived records are returned.', { default: false });
export const idPropertyParam = str(
  "Name of a property with unique values used instead of the internal id (contacts: email, case-insensitive; every type: hs_object_id; custom objects: the schema's unique properties).",
  { examples: ['email'] },
);

export const listLimit = int(
  'Maximum records per page: default 25, maximum 100 (50 with propertiesWithHistory; over the maximum is a 400).',
  { minimum: 1, maximum: 100, default: 25 },
);

const timestamp = str('ISO 8601 UTC timestamp with milliseconds.', { examples: ['2026-01-15T09:30:00.000Z'] });

/** The record result schema (standard and custom records). */
export function recordSchema(withCrmFields: boolean): Json {
  const properties: Record<string, Json> = {
    id: str('Record id (numeric string, unique per connector across all object types).'),
    properties: {
      type: 'object',
      description: 'Property values (strings; null for a requested property without a value).',
      additionalProperties: { type: ['string', 'null'] },
    },
    createdAt: timestamp,
    updatedAt: timestamp,
    archived: bool('True when the record is archived.'),
    archivedAt: {
      ...timestamp,
      type: ['string', 'null'],
      description: 'When the record was archived (only on archived records).',
    },
    associations: {
      type: ['object', 'null'],
      description: 'Associated record ids per requested object type: {<type>: {results: [{id, type}]}}.',
      additionalProperties: obj(
        {
          results: {
            type: 'array',
            items: obj(
              { id: str('Associated record id.'), type: str('Association type name, e.g. contact_to_company.') },
              ['id', 'type'],
            ),
          },
        },
        ['results'],
      ),
    },
  };
  if (withCrmFields) {
    properties.propertiesWithHistory = {
      type: ['object', 'null'],
      description: 'Value history per requested property, newest first.',
      additionalProperties: {
        type: 'array',
        items: obj(
          {
            value: str('The value.'),
            timestamp,
            sourceType: str('API, CALCULATED or IMPORT.'),
            sourceId: str('Writer id, when known.'),
          },
          ['value', 'timestamp', 'sourceType'],
        ),
      },
    };
  }
  return obj(properties, ['id', 'properties', 'createdAt', 'updatedAt', 'archived']);
}
