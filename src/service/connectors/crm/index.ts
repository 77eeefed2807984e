import type { ConnectorType } from '../../core/connector-type.js';
import { crmContextSource } from './context-source.js';
import { crmMigrations } from './db.js';
import { executeCrm } from './execute.js';
import { loadCrmFixtures } from './fixtures.js';
import { seedCrmDemo } from './seed.js';
import { loadCrmActions } from './schema-files.js';
import { crmSearchMigrations, crmSqlFunctions } from './search-index.js';

/** The CRM connector type: every entity and action of the spec's CRM table, stored in the crm_* tables. */
export const crmConnector: ConnectorType = {
  definition: {
    id: 'c0a8e2d4-5b1f-4e7a-9d3c-2f6b8a1e4c70',
    name: 'CRM',
    slug: 'crm',
    iconUrl: 'https://icons.recipe.local/crm.svg',
    supportLevel: 'certified',
  },
  actions: loadCrmActions(),
  execute: executeCrm,
  seedDemo: seedCrmDemo,
  loadFixtures: loadCrmFixtures,
  migrations: [...crmMigrations, ...crmSearchMigrations],
  sqlFunctions: crmSqlFunctions,
  contextStore: crmContextSource,
};
