import { ServiceError } from '../../errors.js';
import type { ConnectorType } from '../types.js';

/** The CRM connector type (placeholder until its actions land; owned by the CRM work). */
export const crmConnector: ConnectorType = {
  definition: {
    id: 'c0a8e2d4-5b1f-4e7a-9d3c-2f6b8a1e4c70',
    name: 'CRM',
    slug: 'crm',
    iconUrl: 'https://icons.recipe.local/crm.svg',
    supportLevel: 'certified',
  },
  actions: [],
  async execute(_ctx, entity, action) {
    throw new ServiceError('H400', { message: `entity "${entity}" has no action "${action}"` });
  },
};
