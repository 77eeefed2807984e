import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedCatalog } from '../../src/catalog/index.js';
import { compileCodes } from '../../src/errors/catalog-compile.js';
import { connectorCodes } from '../../src/errors/catalog-connector.js';
import { schemaCodes } from '../../src/errors/catalog-schema.js';
import { sourceCodes } from '../../src/errors/catalog-source.js';
import { loadRecipe, STEP_KINDS } from '../../src/compile/index.js';

const docs = readFileSync(new URL('../../docs/language.md', import.meta.url), 'utf8');

describe('docs/language.md', () => {
  it('lists every Y, S, E, R, I, A and W code of the catalog', () => {
    const codes = Object.keys({ ...sourceCodes, ...schemaCodes, ...compileCodes, ...connectorCodes });
    expect(codes.filter((code) => !docs.includes(`| ${code} |`))).toEqual([]);
  });

  it('has a section with an example for every step kind', () => {
    for (const kind of STEP_KINDS) expect(docs, kind).toMatch(new RegExp(`### ${kind}:[^\\n]*\\n\`\`\`yaml\\n`));
  });

  it('opens with a complete example that validates', async () => {
    const example = /```yaml\n(# yaml-language-server[\s\S]*?)```/.exec(docs)?.[1];
    expect(example).toBeDefined();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'docs-')), 'example.yaml');
    writeFileSync(file, example ?? '');
    const { diagnostics, warnings } = await loadRecipe(file, { catalog: embeddedCatalog() });
    expect([...diagnostics, ...warnings]).toEqual([]);
  });
});
