import {
  code,
  fingerprint,
  heading,
  list,
  paragraph,
  table,
  type Block,
  type OutlineSection,
  type SkillInfo,
} from './blocks.js';

/** A skill that is the same for every organization: its info, outline and sections. */
interface StaticSkill {
  info: SkillInfo;
  overview: Block[];
  sections: Record<string, { title: string; summary: string; content: Block[] }>;
}

/** A static skill as written below: its info without the version, which is the fingerprint of its content. */
interface StaticSkillSource {
  info: Omit<SkillInfo, 'version'>;
  overview: Block[];
  sections: Record<string, { title: string; summary: string; content: Block[] }>;
}

const recipes: StaticSkillSource = {
  info: {
    id: 'agent:recipes',
    kind: 'static',
    title: 'Working with the connector service',
    summary:
      'The call order (inspect, docs outline, docs section, execute), paging keys, errors and the context store, for agents and recipe authors.',
    tags: ['guide', 'recipes', 'paging', 'errors', 'context-store'],
    provenance: 'static guide bundled with the service',
    freshness: { state: 'static' },
    warnings: [],
  },
  overview: [
    heading('Working with the connector service', 1),
    paragraph(
      'Every read and write goes through POST /api/v1/integrations/connectors/{id}/execute with {entity, action, params}. Find the connector with GET /api/v1/integrations/connectors?workspace_name=default&definition_id=..., then follow the call order.',
    ),
    list([
      '1. inspect: GET /api/v1/integrations/connectors/{id}/inspect',
      '2. docs outline: GET /api/v1/skills/docs?id=connector-source:{id}',
      '3. docs section: GET /api/v1/skills/docs?id=connector-source:{id}&section=actions.<entity>.<action>',
      '4. execute: POST /api/v1/integrations/connectors/{id}/execute',
    ]),
    paragraph('Sections of this skill: call-order, paging, errors, context-store.'),
  ],
  sections: {
    'call-order': {
      title: 'Call order',
      summary: 'inspect → docs outline → docs section → execute, with curl.',
      content: [
        heading('Call order'),
        code(
          'bash',
          [
            'TOKEN=$(curl -s -X POST $BASE_URL/api/v1/account/applications/token -H "Content-Type: application/json" \\',
            '  -d "{\\"client_id\\":\\"$CLIENT_ID\\",\\"client_secret\\":\\"$CLIENT_SECRET\\"}" | jq -r .access_token)',
            'curl -s -H "Authorization: Bearer $TOKEN" $BASE_URL/api/v1/integrations/connectors/$ID/inspect',
            'curl -s -H "Authorization: Bearer $TOKEN" "$BASE_URL/api/v1/skills/docs?id=connector-source:$ID"',
            'curl -s -H "Authorization: Bearer $TOKEN" "$BASE_URL/api/v1/skills/docs?id=connector-source:$ID&section=actions.contacts.list"',
            'curl -s -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\',
            '  $BASE_URL/api/v1/integrations/connectors/$ID/execute -d \'{"entity":"contacts","action":"list","params":{"limit":10}}\'',
          ].join('\n'),
        ),
      ],
    },
    paging: {
      title: 'Paging keys',
      summary: 'Which request key each connector pages with.',
      content: [
        heading('Paging keys'),
        table(
          ['reader', 'request key', 'taken from'],
          [
            ['context_store_search (any connector)', 'params.cursor', 'meta.cursor / connector_metadata.end_cursor'],
            [
              'CRM list, api_search, associations list',
              'params.after',
              'connector_metadata.end_cursor (also next_cursor)',
            ],
            ['Files list', 'params.offset (+ params.limit)', 'connector_metadata.next_offset'],
          ],
        ),
        paragraph(
          'Stop when has_next_page (or has_more) is false. A connector that pages with other keys rejects params.cursor with a 400 naming them.',
        ),
      ],
    },
    errors: {
      title: 'Errors',
      summary: 'The error body and the statuses to expect.',
      content: [
        heading('Errors'),
        paragraph(
          'Every error answers {message, errors: [{field, message, error_code, details}]}. field names the place in the request, e.g. params.query.filter.and[1].eq["properties.email"].',
        ),
        table(
          ['status', 'error_code', 'when'],
          [
            [
              '400',
              'validation_error, unknown_entity, unknown_action, invalid_filter, invalid_sort, invalid_cursor, invalid_limit, cursor_not_supported, value_too_long, ...',
              'bad params, unknown entity/action, bad filters, a cursor sent to an offset connector',
            ],
            ['401', 'unauthorized', 'missing, expired or forged token'],
            ['404', 'not_found', "unknown connector (or another organization's), record or file"],
            ['409', 'context_store_not_ready', 'context_store_search while the entity is Loading or Building Preview'],
            ['429', 'rate_limited', 'over the per-token rate limit; wait Retry-After seconds'],
          ],
        ),
      ],
    },
    'context-store': {
      title: 'Context store',
      summary: 'Readiness states and the filter language of context_store_search.',
      content: [
        heading('Context store'),
        paragraph(
          "The service keeps its own index of each connector's records per entity. A new connector moves Loading → Building Preview → Preview → Ready; inspect shows the status per entity (ready_for_search). After Ready, writes reach the index within 250 ms.",
        ),
        code(
          'json',
          JSON.stringify(
            {
              entity: 'contacts',
              action: 'context_store_search',
              params: {
                query: {
                  filter: { and: [{ fuzzy: { 'properties.firstname': 'teo' } }, { eq: { archived: false } }] },
                  sort: [{ updatedAt: 'desc' }],
                },
                limit: 50,
              },
            },
            null,
            2,
          ),
        ),
      ],
    },
  },
};

/** Every static skill. */
const withVersion = (s: StaticSkillSource): StaticSkill => ({
  ...s,
  info: { ...s.info, version: fingerprint([s.overview, s.sections]) },
});

export const staticSkills: readonly StaticSkill[] = [recipes].map(withVersion);

/** The outline of a static skill. */
export function staticOutline(skill: StaticSkill): OutlineSection[] {
  return Object.entries(skill.sections).map(([id, s]) => ({ id, title: s.title, summary: s.summary, available: true }));
}
