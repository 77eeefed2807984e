import type { ActionDescriptor, ConnectorType } from '../core/connector-type.js';
import type { EntityReadiness } from '../context-store/index.js';
import { code, heading, list, paragraph, table, type Block, type OutlineSection } from './blocks.js';
import { pagingGuidance } from './paging-guidance.js';
import { exampleParams, paramRows, resultRows } from './schema-text.js';
import { searchableFieldRows } from './search-docs.js';

/** What the docs of one connector are generated from. */
export interface ConnectorDocsInput {
  connectorId: string;
  connectorName: string;
  type: ConnectorType;
  readiness: EntityReadiness[];
}

const entitiesOf = (type: ConnectorType) => [...new Set(type.actions.map((a) => a.entity))];

/** The outline: guidance sections, one per entity and one per action. */
export function connectorOutline(input: ConnectorDocsInput): OutlineSection[] {
  const { type, readiness } = input;
  const ready = new Map(readiness.map((r) => [r.entity, r]));
  const sections: OutlineSection[] = [
    {
      id: 'guidance.reading',
      title: 'Which read to use',
      summary: 'context_store_search when the entity is Preview or Ready, list/get otherwise.',
      available: true,
    },
    {
      id: 'guidance.paging',
      title: 'How to page',
      summary: 'The paging keys of each list and search action.',
      available: true,
    },
  ];
  for (const entity of entitiesOf(type)) {
    sections.push({
      id: `entities.${entity}`,
      title: `Entity ${entity}`,
      summary: `Actions of ${entity}: ${type.actions
        .filter((a) => a.entity === entity)
        .map((a) => a.action)
        .join(', ')}.`,
      available: true,
    });
  }
  for (const a of type.actions) {
    const r = ready.get(a.entity);
    const searchNotReady = a.action === 'context_store_search' && !(r?.ready_for_search ?? false);
    sections.push({
      id: `actions.${a.entity}.${a.action}`,
      title: `${a.entity} ${a.action}`,
      summary: searchNotReady
        ? `${a.summary} Not available yet: the context store of ${a.entity} is ${r?.status ?? 'Loading'}.`
        : a.summary,
      available: !searchNotReady,
    });
  }
  return sections;
}

function readingGuidance(input: ConnectorDocsInput): Block[] {
  const { type, readiness } = input;
  const blocks: Block[] = [heading('Which read to use')];
  if (!type.contextStore) {
    blocks.push(
      paragraph(
        `${type.definition.name} has no context store: read with list and get${type.actions.some((a) => a.action === 'download') ? ', and download for file contents' : ''}.`,
      ),
    );
    return blocks;
  }
  blocks.push(
    paragraph(
      "Prefer context_store_search (the service's own index: filters, sorts, full-text) for an entity whose status is Preview or Ready; a Preview searches only the records indexed so far. While an entity is Loading or Building Preview, context_store_search answers 409 context_store_not_ready: use list and get.",
    ),
  );
  blocks.push(
    table(
      ['entity', 'status', 'ready_for_search', 'indexed records'],
      readiness.map((r) => [r.entity, r.status, String(r.ready_for_search), String(r.entity_count)]),
    ),
  );
  return blocks;
}

function pagingSection(input: ConnectorDocsInput): Block[] {
  const rows = input.type.actions
    .map((a) => [a.entity, a.action, pagingGuidance(a)])
    .filter((r): r is string[] => r[2] !== null);
  return [
    heading('How to page'),
    paragraph(
      'Each action pages with its own keys; a connector that pages with other keys rejects params.cursor with a 400 naming them.',
    ),
    table(['entity', 'action', 'paging'], rows),
  ];
}

/** The default docs content (no section): guidance, the call order and where to look next. */
export function connectorOverview(input: ConnectorDocsInput): Block[] {
  const { type, connectorId, connectorName } = input;
  const entities = entitiesOf(type);
  return [
    heading(`${connectorName} (${type.definition.name} connector)`, 1),
    paragraph(
      `Connector ${connectorId}. Call POST /api/v1/integrations/connectors/${connectorId}/execute with {entity, action, params}.`,
    ),
    list([
      '1. GET /api/v1/integrations/connectors/{id}/inspect: readiness and the action catalogue.',
      '2. GET /api/v1/skills/docs?id=connector-source:{id}: this outline.',
      '3. GET /api/v1/skills/docs?id=connector-source:{id}&section=actions.<entity>.<action>: params, an example and the response shape.',
      '4. POST /api/v1/integrations/connectors/{id}/execute.',
    ]),
    ...readingGuidance(input),
    ...pagingSection(input),
    heading('Entities and actions'),
    table(
      ['entity', 'actions'],
      entities.map((e) => [
        e,
        type.actions
          .filter((a) => a.entity === e)
          .map((a) => a.action)
          .join(', '),
      ]),
    ),
    paragraph(
      'Sections: ask for section=actions.<entity>.<action> (for example ' +
        `actions.${type.actions[0]?.entity ?? 'entity'}.${type.actions[0]?.action ?? 'list'}` +
        '), entities.<entity>, guidance.reading or guidance.paging.',
    ),
  ];
}

function actionSection(input: ConnectorDocsInput, a: ActionDescriptor): Block[] {
  const params = exampleParams(a.paramsSchema);
  const search = a.action === 'context_store_search';
  const example = search
    ? { query: { filter: { eq: { archived: false } }, sort: [{ updatedAt: 'desc' }] }, limit: 100 }
    : params;
  const body = JSON.stringify({
    entity: a.entity,
    action: a.action,
    ...(Object.keys(example).length > 0 && { params: example }),
  });
  const curl = [
    `curl -s -X POST "$BASE_URL/api/v1/integrations/connectors/${input.connectorId}/execute" \\`,
    '  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\',
    `  -d '${body.replace(/'/g, "'\\''")}'${a.action === 'download' ? ' --output downloaded.bin' : ''}`,
  ].join('\n');
  const blocks: Block[] = [heading(`${a.entity} ${a.action}`, 1), paragraph(a.summary)];
  const rows = paramRows(a.paramsSchema);
  blocks.push(heading('Params'));
  blocks.push(
    rows.length > 0 ? table(['name', 'type', 'required', 'rules'], rows) : paragraph('This action takes no params.'),
  );
  blocks.push(heading('Example request'), code('bash', curl));
  blocks.push(heading('Response'));
  if (a.action === 'download') {
    blocks.push(
      paragraph(
        "The raw bytes of the file, not JSON: Content-Type is the file's type and Content-Disposition carries its name. An unknown id is a 404; a download never answers an empty 200.",
      ),
    );
  } else {
    const result = a.resultSchema ? resultRows(a.resultSchema) : null;
    blocks.push(
      paragraph(
        `The envelope {status, result, connector_metadata, execution_metadata}; result is ${result?.shape ?? "the action's answer"}.`,
      ),
    );
    if (result && result.rows.length > 0) blocks.push(table(['field', 'type', 'description'], result.rows));
  }
  const paging = pagingGuidance(a);
  if (paging) blocks.push(heading('Paging'), paragraph(paging));
  if (search && input.type.contextStore) {
    const r = input.readiness.find((x) => x.entity === a.entity);
    blocks.push(
      heading('Readiness'),
      paragraph(
        `The context store of ${a.entity} is ${r?.status ?? 'Loading'} (${r?.entity_count ?? 0} records indexed). It answers once Preview or Ready; 409 context_store_not_ready before.`,
      ),
    );
    blocks.push(
      heading('Searchable fields'),
      table(['field', 'type', 'operators'], searchableFieldRows(input.type.contextStore, a.entity)),
    );
    blocks.push(
      heading('Filter language'),
      list([
        'A condition is {operator: {field: value}}; several operators (or fields) in one object are ANDed; and/or take arrays, not takes a condition.',
        'eq/neq: exact value (a number compares numerically, a string as text, null means missing); gt/gte/lt/lte: numbers numerically, strings (ISO dates) as text; in: an array of values.',
        'like: case-insensitive substring, % matches any run of characters; fuzzy: every word of the value starts a word of the field, any order, ignoring case, accents and punctuation; keyword: any of the words appears as a whole word.',
        'contains: an array field holds the value; any: some element of an array field matches a condition (fields inside name element keys; "value" for arrays of plain values).',
        'sort: [{field: "asc"|"desc"}], ties broken by id; missing values sort last in ascending order.',
      ]),
    );
  }
  return blocks;
}

function entitySection(input: ConnectorDocsInput, entity: string): Block[] {
  const actions = input.type.actions.filter((a) => a.entity === entity);
  const blocks: Block[] = [
    heading(`Entity ${entity}`, 1),
    table(
      ['action', 'summary', 'required params', 'section'],
      actions.map((a) => [
        a.action,
        a.summary,
        a.requiredParams.join(', ') || '(none)',
        `actions.${entity}.${a.action}`,
      ]),
    ),
  ];
  if (input.type.contextStore?.entities.includes(entity)) {
    blocks.push(
      heading('Searchable fields (context_store_search)'),
      table(['field', 'type', 'operators'], searchableFieldRows(input.type.contextStore, entity)),
    );
  }
  return blocks;
}

/** The content of one section, or null when the connector has no such section. */
export function connectorSection(input: ConnectorDocsInput, section: string): Block[] | null {
  if (section === 'guidance.reading') return readingGuidance(input);
  if (section === 'guidance.paging') return pagingSection(input);
  const entityMatch = /^entities\.([^.]+)$/.exec(section);
  if (entityMatch && entitiesOf(input.type).includes(entityMatch[1] as string))
    return entitySection(input, entityMatch[1] as string);
  const actionMatch = /^actions\.([^.]+)\.([^.]+)$/.exec(section);
  const action =
    actionMatch && input.type.actions.find((a) => a.entity === actionMatch[1] && a.action === actionMatch[2]);
  return action ? actionSection(input, action) : null;
}
