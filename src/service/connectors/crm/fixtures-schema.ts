import { RECORD_ENTITIES, type RecordEntity } from './entities.js';
import type { SchemaInput } from './schema-store.js';

/** One record of a fixture file. */
export interface FixtureItem {
  id?: string;
  properties: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
  archived?: boolean;
  archivedAt?: string;
}

/** The CRM fixture format (documented in docs/crm.md). */
export type CrmFixtures = Partial<Record<RecordEntity, FixtureItem[]>> & {
  schemas?: SchemaInput[];
  objects?: Record<string, FixtureItem[]>;
  associations?: {
    from: { type: string; id: string };
    to: { type: string; id: string };
    category?: 'PLATFORM_DEFINED' | 'USER_DEFINED';
    /** A number, or (PLATFORM_DEFINED) the type's name, e.g. deal_to_company. */
    typeId?: number | string;
  }[];
};

const idString = { type: 'string', pattern: '^[1-9][0-9]{0,14}$' };
const item = {
  type: 'object',
  additionalProperties: false,
  required: ['properties'],
  properties: {
    id: idString,
    properties: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    archived: { type: 'boolean' },
    archivedAt: { type: 'string' },
  },
};
const name = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,99}$' };
const schemaInput = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'properties'],
  properties: {
    name,
    labels: {
      type: 'object',
      additionalProperties: false,
      required: ['singular', 'plural'],
      properties: { singular: { type: 'string' }, plural: { type: 'string' } },
    },
    description: { type: ['string', 'null'] },
    properties: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name,
          label: { type: 'string' },
          type: { enum: ['string', 'number', 'date', 'datetime', 'enumeration'] },
          fieldType: { type: 'string' },
          description: { type: 'string' },
          hasUniqueValue: { type: 'boolean' },
          options: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['label', 'value'],
              properties: { label: { type: 'string' }, value: { type: 'string' } },
            },
          },
        },
      },
    },
    requiredProperties: { type: 'array', items: { type: 'string' } },
    searchableProperties: { type: 'array', items: { type: 'string' } },
    primaryDisplayProperty: { type: 'string' },
    secondaryDisplayProperties: { type: 'array', items: { type: 'string' } },
    associatedObjects: { type: 'array', items: { enum: [...RECORD_ENTITIES] } },
  },
};
const ref = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'id'],
  properties: { type: { type: 'string', minLength: 1 }, id: idString },
};

/** JSON Schema of the CRM fixture data. */
export const fixturesSchema: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...Object.fromEntries(RECORD_ENTITIES.map((e) => [e, { type: 'array', items: item }])),
    schemas: { type: 'array', items: schemaInput },
    objects: { type: 'object', additionalProperties: { type: 'array', items: item } },
    associations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'to'],
        properties: {
          from: ref,
          to: ref,
          category: { enum: ['PLATFORM_DEFINED', 'USER_DEFINED'] },
          typeId: { type: ['integer', 'string'], minimum: 1, pattern: '^[a-z][a-z0-9_]*$' },
        },
      },
    },
  },
};
