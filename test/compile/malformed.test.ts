import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/compile/index.js';

/** Documents with the wrong shape everywhere: loading must report, never throw. */
const MALFORMED = [
  'version: 1\nname: x\nsteps: 5\n',
  'version: 1\nname: x\nsteps: [null, 1, "x", [], {}]\n',
  'version: 1\nname: x\nsteps:\n  - execute: 5\n  - paginate: null\n    steps: {}\n  - download: [1]\n',
  'version: 1\nname: x\nsteps:\n  - foreach: 1\n    steps: 5\n  - set: [1]\n  - call: 5\n  - call: ./x.yaml\n    with: 3\n',
  'version: 1\nname: x\nsteps:\n  - log: 1\n    connector: "x"\n    retry: "x"\n    assign: 5\n    when: [1]\n',
  'version: 1\nname: x\nsteps:\n  - log: a\n    connector: { id: 5, definition: [1] }\n    timeout_ms: -1\n    on_error: 3\n',
  'version: 1\nname: x\ninputs: [1]\nsecrets: { a: 1 }\nconnector: 5\noutputs: 5\nsteps:\n  - log: a\n',
  'version: 1\nname: x\ninputs:\n  a: 5\n  b: { type: 5, default: 1 }\n  c: { type: integer, default: "${ 1 }", enum: 3 }\nsteps:\n  - log: a\n',
  'version: 1\nname: x\nsteps:\n  - paginate: { entity: 1, action: [], params: 3, next: 4 }\n    as: 5\n    steps: [{ log: "${ $x" }]\n',
  '42\n',
  '"just a string"\n',
  '[1, 2, 3]\n',
];

describe('loadRecipe on malformed documents', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'malformed-'));
  MALFORMED.forEach((text, i) => {
    it(`reports document ${i} without throwing`, async () => {
      const file = path.join(dir, `m${i}.yaml`);
      writeFileSync(file, text);
      const { plan, diagnostics } = await loadRecipe(file);
      expect(plan).toBeUndefined();
      expect(diagnostics.length).toBeGreaterThan(0);
      for (const d of diagnostics) {
        expect(d.code).toMatch(/^[YSERI]\d{3}$/);
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeGreaterThanOrEqual(1);
      }
    });
  });
});
