import { ownValue } from '../../core/own.js';
import { ASSOCIATIONS_ENTITY, ENTITIES, RECORD_ENTITIES, SEARCHABLE_ENTITIES, type EntitySpec } from './entities.js';
import { contextStoreSearchParamsSchema, contextStoreSearchResultSchema } from '../../context-store/params-schema.js';
import {
  DRAFT,
  afterParam,
  archivedParam,
  associationsParam,
  bool,
  cursorParam,
  historyParam,
  idPropertyParam,
  int,
  listLimit,
  obj,
  propertiesParam,
  recordSchema,
  str,
  type Json,
} from './schema-parts.js';

/** One CRM action as data: its params and result schemas and what the action table needs. */
export interface CrmActionSpec {
  readonly entity: string;
  readonly action: string;
  readonly summary: string;
  readonly write: boolean;
  /** A write whose repetition changes nothing (ActionDescriptor.idempotent). */
  readonly idempotent?: boolean;
  readonly params: Json;
  readonly result: Json;
}

function withDraft(title: string, schema: Json): Json {
  return { $schema: DRAFT, title, ...schema };
}

function propertySchema(e: EntitySpec, name: string, forUpdate: boolean): Json {
  const description = e.descriptions[name] ?? name;
  const allowed = e.enums[name];
  if (allowed)
    return {
      type: 'string',
      enum: forUpdate ? [...allowed, ''] : [...allowed],
      description: forUpdate ? `${description} Empty string clears it.` : description,
    };
  const s: Json = { type: ['string', 'number', 'boolean'], description };
  // The value rule validateProperties applies beyond the type (property-rules.ts), for clients that check
  // a write before sending it (the engine's --dry-run and validate): datetime, number, integer or email.
  const kind = ownValue(e.kinds, name) ?? (e.name === 'contacts' && name === 'email' ? 'email' : undefined);
  if (kind !== undefined && kind !== 'string') s['x-value'] = kind;
  const examples = e.examples[name];
  if (examples) s.examples = [...examples];
  // Only create fills defaults: ajv's useDefaults would otherwise put them into every update.
  if (!forUpdate && e.defaults[name] && e.defaults[name] !== 'now') s.default = e.defaults[name];
  return s;
}

function propertiesObject(e: EntitySpec, mode: 'create' | 'update'): Json {
  const names = e.writable.filter((n) => mode === 'create' || !e.createOnly.includes(n));
  const props: Record<string, Json> = {};
  for (const n of names) props[n] = propertySchema(e, n, mode === 'update');
  const description =
    mode === 'create'
      ? `Property values (strings; numbers are accepted and stored as strings). Required: ${e.required.join(', ') || 'none'}.`
      : 'Only the given properties change; an empty string clears a value.';
  return obj(props, mode === 'create' ? [...e.required] : [], { description });
}

/**
 * associationTypeId: a number, or the name of a PLATFORM_DEFINED type (as in v3 association `type`
 * names); the action checks that the name belongs to the pair it links.
 */
function associationTypeIdParam(description: string, examples: (number | string)[]): Json {
  return { type: ['integer', 'string'], description, minimum: 1, pattern: '^[a-z][a-z0-9_]*$', examples };
}

const associationRequest = {
  type: 'array',
  description:
    'Records to associate the new activity with. Type ids (activity → contact/company/deal/ticket): notes 202/190/214/18 (228 also accepted), calls 194/182/206/220, emails 198/186/210/224, meetings 200/188/212/226, tasks 204/192/216/228 (230 also accepted).',
  items: obj(
    {
      to: obj(
        {
          id: {
            type: ['string', 'integer'],
            description: 'Id of the record to associate with.',
            pattern: '^[0-9]{1,15}$',
          },
        },
        ['id'],
        { description: 'The record to associate with.' },
      ),
      types: {
        type: 'array',
        minItems: 1,
        description: 'Association types to create.',
        items: obj(
          {
            associationCategory: {
              type: 'string',
              enum: ['PLATFORM_DEFINED', 'USER_DEFINED'],
              description: 'PLATFORM_DEFINED for standard types, USER_DEFINED for custom labels.',
            },
            associationTypeId: associationTypeIdParam(
              'Association type id for the activity → record direction, or its name (note_to_contact, task_to_deal, ...).',
              [202, 'note_to_contact'],
            ),
          },
          ['associationCategory', 'associationTypeId'],
        ),
      },
    },
    ['to', 'types'],
  ),
};

function recordActions(e: EntitySpec): CrmActionSpec[] {
  const name = e.name;
  const record = recordSchema(true);
  const list = { type: 'array', description: `A page of ${name}.`, items: record };
  const idParam = str(`Id of the ${e.singular} (or the idProperty value).`, { minLength: 1, examples: ['101'] });
  const out: CrmActionSpec[] = [
    {
      entity: name,
      action: 'list',
      write: false,
      summary: `List ${name} in id order, paged with after.`,
      params: obj({
        limit: listLimit,
        after: afterParam,
        properties: propertiesParam,
        propertiesWithHistory: historyParam,
        associations: associationsParam,
        archived: archivedParam,
        cursor: cursorParam,
      }),
      result: list,
    },
    {
      entity: name,
      action: 'get',
      write: false,
      summary: `Get one ${e.singular} by ${e.idParam} (or idProperty).`,
      params: obj(
        {
          [e.idParam]: idParam,
          properties: propertiesParam,
          propertiesWithHistory: historyParam,
          associations: associationsParam,
          idProperty: idPropertyParam,
          archived: archivedParam,
        },
        [e.idParam],
      ),
      result: record,
    },
    {
      entity: name,
      action: 'create',
      write: true,
      summary: `Create a ${e.singular}.`,
      params: obj(
        { properties: propertiesObject(e, 'create'), ...(e.activity ? { associations: associationRequest } : {}) },
        ['properties'],
      ),
      result: record,
    },
    {
      entity: name,
      action: 'update',
      write: true,
      summary: `Update properties of a ${e.singular}.`,
      params: obj(
        {
          [e.idParam]: str(`Id of the ${e.singular}.`, { minLength: 1, examples: ['101'] }),
          properties: propertiesObject(e, 'update'),
        },
        [e.idParam, 'properties'],
      ),
      result: record,
    },
  ];
  if (e.activity) {
    out.push({
      entity: name,
      action: 'delete',
      write: true,
      summary: `Archive a ${e.singular} (soft delete; read it back with archived=true).`,
      params: obj({ [e.idParam]: str(`Id of the ${e.singular}.`, { minLength: 1 }) }, [e.idParam]),
      result: obj(
        {
          id: str('Id of the archived record.'),
          archived: bool('Always true.'),
          archivedAt: str('When it was archived.'),
        },
        ['id', 'archived', 'archivedAt'],
      ),
    });
  }
  if ((SEARCHABLE_ENTITIES as readonly string[]).includes(name)) out.push(searchAction(e, record));
  out.push(contextStoreAction(e));
  return out;
}

const OPERATORS = [
  'BETWEEN',
  'CONTAINS_TOKEN',
  'EQ',
  'GT',
  'GTE',
  'HAS_PROPERTY',
  'IN',
  'LT',
  'LTE',
  'NEQ',
  'NOT_CONTAINS_TOKEN',
  'NOT_HAS_PROPERTY',
  'NOT_IN',
];
const scalar = (description: string): Json => ({ type: ['string', 'number', 'boolean'], description });

function searchAction(e: EntitySpec, record: Json): CrmActionSpec {
  const filter = obj(
    {
      propertyName: str(
        'Property to filter on; `associations.<type>` (e.g. associations.company) with EQ/NEQ/IN/NOT_IN matches records associated with the given record id(s).',
        { pattern: '^[A-Za-z0-9_.-]{1,100}$', examples: ['email', 'associations.company'] },
      ),
      operator: {
        type: 'string',
        enum: OPERATORS,
        description:
          'EQ/NEQ (case-insensitive text; numbers and dates compare by value), LT/LTE/GT/GTE, BETWEEN (value..highValue inclusive), IN/NOT_IN (values), HAS_PROPERTY/NOT_HAS_PROPERTY, CONTAINS_TOKEN/NOT_CONTAINS_TOKEN (* wildcards).',
      },
      value: scalar('Value to compare with (low end for BETWEEN).'),
      highValue: scalar('High end for BETWEEN.'),
      values: {
        type: 'array',
        items: { type: ['string', 'number', 'boolean'] },
        description: 'Values for IN / NOT_IN.',
      },
    },
    ['propertyName', 'operator'],
  );
  return {
    entity: e.name,
    action: 'api_search',
    write: false,
    summary: `Search ${e.name} live: filter groups (ORed) of filters (ANDed), one sort, free-text query.`,
    params: obj({
      filterGroups: {
        type: 'array',
        maxItems: 6,
        description: 'Up to 6 groups, ORed; at most 6 filters per group and 18 in total.',
        items: obj(
          { filters: { type: 'array', maxItems: 6, description: 'Filters of the group, ANDed.', items: filter } },
          ['filters'],
        ),
      },
      sorts: {
        type: 'array',
        maxItems: 1,
        description: 'One sort rule (default: id order).',
        items: obj(
          {
            propertyName: str('Property to sort by.'),
            direction: {
              type: 'string',
              enum: ['ASCENDING', 'DESCENDING'],
              default: 'ASCENDING',
              description: 'Sort direction.',
            },
          },
          ['propertyName'],
        ),
      },
      query: str(`Free text searched (case-insensitive substring) in ${e.queryProperties.join(', ')}.`, {
        maxLength: 3000,
      }),
      properties: {
        type: 'array',
        items: { type: 'string' },
        description: 'Property names to return (the default set when omitted).',
      },
      limit: int('Maximum results per page: default 25, maximum 200.', { minimum: 1, maximum: 200, default: 25 }),
      after: str(
        'Offset of the next page: connector_metadata.end_cursor of the previous page. At most 10,000 results can be paged through.',
        { pattern: '^[0-9]{1,15}$', examples: ['25'] },
      ),
      cursor: cursorParam,
    }),
    result: {
      type: 'array',
      description: `Matching ${e.name}; connector_metadata.total holds the number of matches.`,
      items: record,
    },
  };
}

function contextStoreAction(e: EntitySpec): CrmActionSpec {
  // The context store owns this action: its params and result schemas come from there (one source).
  const searchable = [
    'id',
    'archived',
    'createdAt',
    'updatedAt',
    ...e.contextProperties.map((p) => `properties.${p}`),
    ...e.contextArrays,
  ];
  return {
    entity: e.name,
    action: 'context_store_search',
    write: false,
    summary: `Search the pre-indexed copy of ${e.name} (context store).`,
    params: contextStoreSearchParamsSchema(e.name, searchable),
    result: contextStoreSearchResultSchema,
  };
}

const objectTypeParam = str(
  'Object type: a custom object type id ("2-1") or fully qualified name ("p12345678_vehicles").',
  { minLength: 1, examples: ['2-1'] },
);

function otherActions(): CrmActionSpec[] {
  const record = recordSchema(true);
  const strings = (d: string): Json => ({ type: 'array', items: { type: 'string' }, description: d });
  const schemaRecord = obj(
    {
      id: str('Numeric id of the schema.'),
      name: str('Name, e.g. vehicles.'),
      labels: obj({ singular: str('Singular label.'), plural: str('Plural label.') }, ['singular', 'plural'], {
        description: 'Display labels.',
      }),
      objectTypeId: str('Object type id, "2-<id>".'),
      fullyQualifiedName: str('"p<portal>_<name>".'),
      requiredProperties: strings('Properties required on records.'),
      searchableProperties: strings('Properties searched by text.'),
      primaryDisplayProperty: str('Property shown as the record name.'),
      secondaryDisplayProperties: strings('Further display properties.'),
      description: { type: ['string', 'null'], description: 'Description.' },
      allowsSensitiveProperties: bool('Always false here.'),
      archived: bool('True for an archived schema.'),
      restorable: bool('Always true here.'),
      metaType: str('PORTAL_SPECIFIC.'),
      createdByUserId: int('Creator user id.'),
      updatedByUserId: int('Last editor user id.'),
      properties: {
        type: 'array',
        items: { type: 'object' },
        description: 'Property definitions (name, label, type, fieldType, options, hasUniqueValue, ...).',
      },
      associations: {
        type: 'array',
        items: { type: 'object' },
        description: 'Association definitions (id = association type id, fromObjectTypeId, toObjectTypeId, name).',
      },
      createdAt: str('Creation time.'),
      updatedAt: str('Last change.'),
    },
    [
      'id',
      'name',
      'labels',
      'objectTypeId',
      'fullyQualifiedName',
      'requiredProperties',
      'searchableProperties',
      'primaryDisplayProperty',
      'secondaryDisplayProperties',
      'description',
      'allowsSensitiveProperties',
      'archived',
      'restorable',
      'metaType',
      'createdByUserId',
      'updatedByUserId',
      'properties',
      'associations',
      'createdAt',
      'updatedAt',
    ],
    { description: 'A custom object schema record.' },
  );
  const assocType = obj(
    {
      category: str('PLATFORM_DEFINED or USER_DEFINED.'),
      typeId: int('Association type id.'),
      label: { type: ['string', 'null'], description: 'Label; null for the default (unlabeled) type.' },
    },
    ['category', 'typeId', 'label'],
  );
  const objType = (side: string) =>
    str(
      `Object type of the ${side} record: contacts, companies, deals, tickets, notes, calls, emails, meetings, tasks, or a custom object type id / fully qualified name.`,
      { minLength: 1, examples: [side === 'from' ? 'contacts' : 'companies'] },
    );
  const objId = (side: string) => str(`Id of the ${side} record.`, { minLength: 1, examples: ['101'] });
  return [
    {
      entity: 'schemas',
      action: 'list',
      write: false,
      summary: 'List custom object schemas.',
      params: obj({ archived: archivedParam }),
      result: { type: 'array', items: schemaRecord },
    },
    {
      entity: 'schemas',
      action: 'get',
      write: false,
      summary: 'Get one custom object schema.',
      params: obj({ objectType: objectTypeParam }, ['objectType']),
      result: schemaRecord,
    },
    {
      entity: 'objects',
      action: 'list',
      write: false,
      summary: 'List records of a custom object type, paged with after.',
      params: obj(
        {
          objectType: objectTypeParam,
          limit: listLimit,
          after: afterParam,
          properties: propertiesParam,
          archived: archivedParam,
          associations: associationsParam,
          propertiesWithHistory: historyParam,
          cursor: cursorParam,
        },
        ['objectType'],
      ),
      result: { type: 'array', items: record },
    },
    {
      entity: 'objects',
      action: 'get',
      write: false,
      summary: 'Get one record of a custom object type.',
      params: obj(
        {
          objectType: objectTypeParam,
          objectId: str('Record id, or a unique property value with idProperty.', { minLength: 1 }),
          properties: propertiesParam,
          archived: archivedParam,
          associations: associationsParam,
          idProperty: idPropertyParam,
          propertiesWithHistory: historyParam,
        },
        ['objectType', 'objectId'],
      ),
      result: record,
    },
    {
      entity: ASSOCIATIONS_ENTITY,
      action: 'list',
      write: false,
      summary: 'List the associations of one record to an object type.',
      params: obj(
        {
          fromObjectType: objType('from'),
          fromObjectId: objId('from'),
          toObjectType: objType('to'),
          after: afterParam,
          limit: int('Maximum target records per page: default and maximum 500.', {
            minimum: 1,
            maximum: 500,
            default: 500,
          }),
          cursor: cursorParam,
        },
        ['fromObjectType', 'fromObjectId', 'toObjectType'],
      ),
      result: obj(
        {
          results: {
            type: 'array',
            items: obj(
              {
                toObjectId: int('Id of the associated record (a number, as upstream).'),
                associationTypes: { type: 'array', items: assocType },
              },
              ['toObjectId', 'associationTypes'],
            ),
          },
          paging: obj(
            { next: obj({ after: str('after for the next page.'), link: str('Link of the next page.') }) },
            [],
            { description: 'Present only when another page exists.' },
          ),
        },
        ['results'],
      ),
    },
    {
      entity: ASSOCIATIONS_ENTITY,
      action: 'create',
      write: true,
      idempotent: true,
      summary: 'Associate two records (idempotent).',
      params: obj(
        {
          associationCategory: {
            type: 'string',
            enum: ['PLATFORM_DEFINED', 'USER_DEFINED'],
            description: 'PLATFORM_DEFINED for standard types, USER_DEFINED for custom labels.',
          },
          associationTypeId: associationTypeIdParam(
            'Association type id for the from → to direction, e.g. 279 contact → company, 1 primary company; or its name, e.g. contact_to_company_unlabeled (279), contact_to_company (1, primary), deal_to_company.',
            [279, 'contact_to_company_unlabeled'],
          ),
          fromObjectType: objType('from'),
          fromObjectId: objId('from'),
          toObjectType: objType('to'),
          toObjectId: objId('to'),
        },
        ['associationCategory', 'associationTypeId', 'fromObjectType', 'fromObjectId', 'toObjectType', 'toObjectId'],
      ),
      result: obj(
        {
          status: str('COMPLETE.'),
          results: {
            type: 'array',
            items: obj({
              fromObjectTypeId: str('From type id.'),
              fromObjectId: int('From record id.'),
              toObjectTypeId: str('To type id.'),
              toObjectId: int('To record id.'),
              labels: { type: 'array', items: { type: 'string' }, description: 'Named labels between the pair.' },
            }),
          },
          requestedAt: { type: ['string', 'null'], description: 'When the request arrived.' },
          startedAt: str('Start time.'),
          completedAt: str('Completion time.'),
        },
        ['status', 'results', 'startedAt', 'completedAt'],
      ),
    },
    {
      entity: ASSOCIATIONS_ENTITY,
      action: 'delete',
      write: true,
      idempotent: true,
      summary: 'Remove every association between two records (both directions).',
      params: obj(
        {
          fromObjectType: objType('from'),
          fromObjectId: objId('from'),
          toObjectType: objType('to'),
          toObjectId: objId('to'),
        },
        ['fromObjectType', 'fromObjectId', 'toObjectType', 'toObjectId'],
      ),
      result: obj(
        { status: str('COMPLETE.'), deleted: int('Association types removed, as seen from the from record.') },
        ['status', 'deleted'],
      ),
    },
  ];
}

/** Every CRM action with its params and result schemas, in the order of the spec's action table. */
export function buildCrmActionSpecs(): CrmActionSpec[] {
  const specs = [...RECORD_ENTITIES.flatMap((n) => recordActions(ENTITIES[n])), ...otherActions()];
  return specs.map((s) => ({
    ...s,
    params: withDraft(`crm ${s.entity}.${s.action} params`, s.params),
    result: withDraft(`crm ${s.entity}.${s.action} result`, s.result),
  }));
}

/** File name (under schemas/connectors/crm/) of an action's params or result schema. */
export function schemaFileName(entity: string, action: string, kind: 'params' | 'result'): string {
  return `${entity}.${action}.${kind}.json`;
}
