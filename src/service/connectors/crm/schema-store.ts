import { sql, type Kysely } from 'kysely';
import { ServiceError } from '../../core/errors.js';
import { portalIdFor, type CustomPropertyDef, type CustomSchema } from './custom-schema.js';
import { crmDb } from './db.js';
import { RECORD_ENTITIES, type RecordEntity } from './entities.js';
import { schemaFromRow } from './object-types.js';
import type { CoreTables } from '../../core/tables.js';

/** What it takes to define a custom object type (seed and fixtures). */
export interface SchemaInput {
  name: string;
  labels?: { singular: string; plural: string };
  description?: string | null;
  properties: {
    name: string;
    label?: string;
    type?: CustomPropertyDef['type'];
    fieldType?: string;
    description?: string;
    hasUniqueValue?: boolean;
    options?: { label: string; value: string }[];
  }[];
  requiredProperties?: string[];
  searchableProperties?: string[];
  primaryDisplayProperty?: string;
  secondaryDisplayProperties?: string[];
  associatedObjects?: RecordEntity[];
}

/** Stores a new custom object schema (id = next per connector, objectTypeId "2-<id>"); 409 if the name exists. */
export async function insertSchema(
  trx: Kysely<CoreTables>,
  connectorId: string,
  input: SchemaInput,
  now: string,
  field = 'schemas',
): Promise<CustomSchema> {
  const db = crmDb(trx);
  const taken = await db
    .selectFrom('crm_schemas')
    .select('id')
    .where('connector_id', '=', connectorId)
    .where('name', '=', input.name)
    .executeTakeFirst();
  if (taken)
    throw new ServiceError(
      'H409',
      { message: `a custom object schema named "${input.name}" already exists` },
      { field },
    );
  const max = await db
    .selectFrom('crm_schemas')
    .select(sql<number | null>`max(id)`.as('m'))
    .where('connector_id', '=', connectorId)
    .executeTakeFirst();
  const id = (max?.m ?? 0) + 1;
  const properties: CustomPropertyDef[] = input.properties.map((p) => ({
    name: p.name,
    label: p.label ?? p.name,
    type: p.type ?? 'string',
    fieldType:
      p.fieldType ??
      (p.type === 'enumeration'
        ? 'select'
        : p.type === 'number'
          ? 'number'
          : p.type === 'date' || p.type === 'datetime'
            ? 'date'
            : 'text'),
    description: p.description ?? '',
    hasUniqueValue: p.hasUniqueValue ?? false,
    options: p.options ?? [],
  }));
  const first = properties[0]?.name ?? 'hs_object_id';
  const definition = {
    labels: input.labels ?? { singular: input.name, plural: input.name },
    description: input.description ?? null,
    requiredProperties: input.requiredProperties ?? [],
    searchableProperties: input.searchableProperties ?? [first],
    primaryDisplayProperty: input.primaryDisplayProperty ?? first,
    secondaryDisplayProperties: input.secondaryDisplayProperties ?? [],
    properties,
    associatedObjects: input.associatedObjects ?? [...RECORD_ENTITIES],
  };
  const row = {
    connector_id: connectorId,
    id,
    name: input.name,
    fully_qualified_name: `p${portalIdFor(connectorId)}_${input.name}`,
    definition: JSON.stringify(definition),
    archived: 0,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('crm_schemas').values(row).execute();
  return schemaFromRow(row);
}
