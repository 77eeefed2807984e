import { crmConnector } from './crm/index.js';
import { filesConnector } from './files/index.js';
import type { ConnectorType } from './types.js';

/** Every connector type the service offers, in catalog order. */
export const connectorTypes: readonly ConnectorType[] = [crmConnector, filesConnector];

/** The connector type with this definition id (sourceDefinitionId), if any. */
export function findTypeByDefinitionId(
  definitionId: string,
  types: readonly ConnectorType[] = connectorTypes,
): ConnectorType | undefined {
  return types.find((t) => t.definition.id === definitionId);
}

/** The connector type whose slug or display name matches, case-insensitively ("crm", "CRM"). */
export function findTypeBySlugOrName(
  value: string,
  types: readonly ConnectorType[] = connectorTypes,
): ConnectorType | undefined {
  const v = value.trim().toLowerCase();
  return types.find((t) => t.definition.slug.toLowerCase() === v || t.definition.name.toLowerCase() === v);
}
