/** schemas/connectors/catalog.json is what the service's action tables generate (scripts/gen-connector-catalog.mjs). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogDataFile } from '../../src/service/connectors/catalog-data.js';
import { crmDataExtras } from '../../src/service/connectors/crm/catalog-data.js';
import { connectorTypes } from '../../src/service/connectors/registry.js';

const file = new URL('../../schemas/connectors/catalog.json', import.meta.url);

describe('schemas/connectors/catalog.json', () => {
  it('equals what the connector types generate (run npm run build && node scripts/gen-connector-catalog.mjs)', () => {
    const expected = catalogDataFile(connectorTypes, (t) => (t.definition.slug === 'crm' ? crmDataExtras() : {}));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('names every association type once per pair and keeps aliases nameless', () => {
    const crm = (
      JSON.parse(readFileSync(file, 'utf8')) as { types: { slug: string; association_types?: any[] }[] }
    ).types.find((t) => t.slug === 'crm')!;
    const rows = crm.association_types!.filter((r) => !r.alias);
    const keys = rows.map((r) => `${r.from}/${r.to}/${r.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows.find((r) => r.name === 'deal_to_company')).toMatchObject({ typeId: 5, label: 'Primary' });
    expect(rows.find((r) => r.name === 'task_to_deal')).toMatchObject({ typeId: 216, from: 'tasks', to: 'deals' });
  });
});
