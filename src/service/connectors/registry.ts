import { crmConnector } from './crm/index.js';
import { filesConnector } from './files/index.js';
import type { ConnectorType } from './types.js';

/** Every connector type the service offers, in catalog order. */
export const connectorTypes: readonly ConnectorType[] = [crmConnector, filesConnector];
