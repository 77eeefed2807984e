import type { Kysely } from 'kysely';
import { findTypeByDefinitionId } from '../core/connector-type.js';
import type { ConnectorType } from '../core/connector-type.js';
import { readContextStoreReadiness } from '../context-store/index.js';
import { ServiceError } from '../core/errors.js';
import { findConnector } from '../store/connectors.js';
import type { Block, OutlineSection, SkillInfo } from './blocks.js';
import { connectorSkill } from './catalog.js';
import { connectorOutline, connectorOverview, connectorSection } from './connector-docs.js';
import { staticOutline, staticSkills } from './static-skills.js';
import type { CoreTables } from '../core/tables.js';

/** The docs answer: the skill, its outline, and the content of the section asked for (or the overview). */
export interface SkillDocs {
  metadata: SkillInfo;
  outline: OutlineSection[];
  section_id: string | null;
  content: Block[];
}

function unknownSection(id: string, section: string, outline: OutlineSection[]): ServiceError {
  return new ServiceError(
    'H404',
    { message: `skill ${id} has no section "${section}"` },
    { field: 'query.section', details: { sections: outline.map((s) => s.id) } },
  );
}

/** Builds the docs of a skill for an organization; unknown skills (or other organizations' connectors) and sections are 404s. */
export async function skillDocs(
  db: Kysely<CoreTables>,
  types: readonly ConnectorType[],
  orgId: string,
  id: string,
  section: string | undefined,
): Promise<SkillDocs> {
  const fixed = staticSkills.find((s) => s.info.id === id);
  if (fixed) {
    const outline = staticOutline(fixed);
    if (section === undefined) return { metadata: fixed.info, outline, section_id: null, content: fixed.overview };
    // Own keys only: "__proto__" or "constructor" is no section.
    const found = Object.hasOwn(fixed.sections, section) ? fixed.sections[section] : undefined;
    if (!found) throw unknownSection(id, section, outline);
    return { metadata: fixed.info, outline, section_id: section, content: found.content };
  }
  const m = /^connector-source:(.{1,100})$/.exec(id);
  const row = m ? await findConnector(db, orgId, m[1] as string) : undefined;
  const type = row && findTypeByDefinitionId(row.definition_id, types);
  if (!row || !type) throw new ServiceError('H404', { message: `no skill with id ${id}` }, { field: 'query.id' });
  const readiness = type.contextStore ? await readContextStoreReadiness(db, row.id, type.contextStore.entities) : [];
  const input = { connectorId: row.id, connectorName: row.name, type, readiness };
  const metadata = await connectorSkill(db, row, type);
  const outline = connectorOutline(input);
  if (section === undefined) return { metadata, outline, section_id: null, content: connectorOverview(input) };
  const content = connectorSection(input, section);
  if (!content) throw unknownSection(id, section, outline);
  return { metadata, outline, section_id: section, content };
}
