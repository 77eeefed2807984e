import type { Kysely } from 'kysely';
import { findTypeByDefinitionId } from '../core/connector-type.js';
import type { ConnectorType } from '../core/connector-type.js';
import { readContextStoreReadiness } from '../context-store/index.js';
import { ServiceError } from '../core/errors.js';
import { docsSkillId } from '../inspect/connector-report.js';
import { fingerprint, type SkillInfo } from './blocks.js';
import { staticSkills } from './static-skills.js';
import { words } from '../context-store/words.js';
import type { CoreTables } from '../core/tables.js';
import type { CursorSeal } from '../core/cursor-seal.js';

/** Default and maximum page size of the skills list and search. */
export const SKILLS_LIMIT_DEFAULT = 20;
export const SKILLS_LIMIT_MAX = 100;

interface ConnectorRow {
  id: string;
  name: string;
  workspace_id: string;
  definition_id: string;
}

/** The connectors of an organization (live workspaces), optionally of one workspace, oldest first. */
export async function orgConnectors(
  db: Kysely<CoreTables>,
  orgId: string,
  workspaceId?: string,
): Promise<ConnectorRow[]> {
  let q = db
    .selectFrom('connectors as c')
    .innerJoin('workspaces as w', 'w.id', 'c.workspace_id')
    .select(['c.id', 'c.name', 'c.workspace_id', 'c.definition_id'])
    .where('c.organization_id', '=', orgId)
    .where('w.deleted_at', 'is', null);
  if (workspaceId !== undefined) q = q.where('c.workspace_id', '=', workspaceId);
  return (await q.orderBy('c.created_at').orderBy('c.id').execute()) as ConnectorRow[];
}

/** The skill describing one connector, with warnings when its context store is not searchable yet. */
export async function connectorSkill(
  db: Kysely<CoreTables>,
  row: ConnectorRow,
  type: ConnectorType,
): Promise<SkillInfo> {
  const entities = [...new Set(type.actions.map((a) => a.entity))];
  const warnings: string[] = [];
  if (type.contextStore) {
    const readiness = await readContextStoreReadiness(db, row.id, type.contextStore.entities);
    const waiting = readiness.filter((r) => !r.ready_for_search).map((r) => `${r.entity} (${r.status})`);
    if (waiting.length > 0) warnings.push(`context_store_search is not available yet for ${waiting.join(', ')}`);
  }
  return {
    id: docsSkillId(row.id),
    kind: 'connector_source',
    title: `${row.name} (${type.definition.name})`,
    summary: `How to read and write ${type.definition.name} data through connector ${row.id}: entities ${entities.join(', ')}.`,
    tags: [...new Set([type.definition.slug, ...entities])],
    provenance: `connector source definition ${type.definition.name} (${type.definition.id})`,
    version: fingerprint([
      type.definition,
      type.actions.map((a) => [a.entity, a.action, a.write, a.requiredParams, a.optionalParams]),
    ]),
    freshness: { state: 'live' },
    warnings,
  };
}

/** Every skill an organization sees: the static ones, then one per connector. */
export async function listSkills(
  db: Kysely<CoreTables>,
  types: readonly ConnectorType[],
  orgId: string,
  workspaceId?: string,
): Promise<SkillInfo[]> {
  const out = staticSkills.map((s) => s.info);
  for (const row of await orgConnectors(db, orgId, workspaceId)) {
    const type = findTypeByDefinitionId(row.definition_id, types);
    if (type) out.push(await connectorSkill(db, row, type));
  }
  return out;
}

/** True when every word of the query starts a word of the skill's id, title, summary or tags. */
export function matchesQuery(skill: SkillInfo, query: string): boolean {
  const haystack = words([skill.id, skill.title, skill.summary, ...skill.tags].join(' '));
  return words(query).every((q) => haystack.some((w) => w.startsWith(q)));
}

/** One page of skills: an opaque cursor holds the offset into the (stable) list, sealed by the service. */
export function pageSkills(
  all: SkillInfo[],
  limit: number,
  cursor: string | undefined,
  cursors: CursorSeal,
): { data: SkillInfo[]; next_cursor: string | null } {
  let offset = 0;
  if (cursor !== undefined) {
    const m = /^o:(\d{1,9})$/.exec(cursors.open(cursor) ?? '');
    if (!m)
      throw new ServiceError(
        'H400_INVALID_CURSOR',
        { message: 'cursor must be the next_cursor of a previous response' },
        { field: 'query.cursor' },
      );
    offset = Number(m[1]);
  }
  const data = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? cursors.seal(`o:${offset + limit}`) : null;
  return { data, next_cursor: next };
}
