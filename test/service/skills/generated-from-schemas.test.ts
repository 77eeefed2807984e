import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorTypes } from '../../../src/service/connectors/registry.js';
import { createTestService, type TestService } from '../helpers.js';

let svc: TestService;
const ids = new Map<string, string>();

beforeAll(async () => {
  svc = await createTestService({ contextStore: { hold: 'Loading' } });
  for (const t of connectorTypes) ids.set(t.definition.slug, await svc.createConnector(t.definition.slug));
});
afterAll(async () => svc.close());

describe('skills docs are generated from the schemas that validate execute', () => {
  it("documents every param of every action of every connector type, with the schema's required flags", async () => {
    const headers = await svc.auth();
    for (const t of connectorTypes) {
      const id = ids.get(t.definition.slug)!;
      for (const a of t.actions) {
        const res = await svc.app.inject({
          method: 'GET',
          url: `/api/v1/skills/docs?id=connector-source:${id}&section=actions.${a.entity}.${a.action}`,
          headers,
        });
        expect(res.statusCode, `${t.definition.slug} ${a.entity}.${a.action}`).toBe(200);
        const content = res.json().content as any[];
        const props = Object.keys((a.paramsSchema.properties ?? {}) as object);
        const required = (a.paramsSchema.required ?? []) as string[];
        const table = content.find((b) => b.type === 'table' && b.headers[0] === 'name');
        if (props.length === 0) {
          expect(table).toBeUndefined();
          continue;
        }
        const rows = new Map((table.rows as string[][]).map((r) => [r[0], r]));
        for (const p of props) {
          expect(rows.has(p), `${a.entity}.${a.action} param ${p}`).toBe(true);
          expect(rows.get(p)![2]).toBe(required.includes(p) ? 'yes' : 'no');
        }
        const example = content.find((b) => b.type === 'code');
        const body = JSON.parse(/-d '(.*)'/s.exec(example.code)![1]!.replace(/'\\''/g, "'"));
        expect(body).toMatchObject({ entity: a.entity, action: a.action });
        for (const p of required) expect(body.params, `${a.entity}.${a.action} example has ${p}`).toHaveProperty(p);
      }
    }
  });

  it('describes every Files param in its schema', () => {
    const files = connectorTypes.find((t) => t.definition.slug === 'files')!;
    for (const a of files.actions) {
      for (const [name, schema] of Object.entries(
        a.paramsSchema.properties as Record<string, { description?: unknown }>,
      )) {
        expect(typeof schema.description, `${a.entity}.${a.action}.${name}`).toBe('string');
      }
      expect(a.paramsSchema.additionalProperties).toBe(false);
    }
  });
});
