import type { ConnectorType } from '../core/connector-type.js';
import { crmConnector } from './crm/index.js';
import { filesConnector } from './files/index.js';

/** Every connector type the service offers, in catalog order (the composition root's default). */
export const connectorTypes: readonly ConnectorType[] = [crmConnector, filesConnector];
