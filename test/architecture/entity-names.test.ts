import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { crmConnector } from '../../src/service/connectors/crm/index.js';
import { SRC, sourceFiles } from './import-graph.js';

// House rule 14: no connector's entity names in the engine. Everything in src/ but the service learns entities
// from the connector catalog (the service's descriptors), so no file outside src/service/ spells a CRM entity
// as a string literal: neither the name ('associations') nor a name with a dot ('associations.', 'deals.create').

/** The CRM's entities, as its descriptors list them. */
const CRM_ENTITIES = [...new Set(crmConnector.actions.map((a) => a.entity))];

/** Literals allowed to stay for now, as `file: text`, each with its reason. */
const EXCEPTIONS = [
  'expr/runtime/signature.ts: objects', // JSONata's word for the `o` type in signature errors, not the CRM entity
];

const named = new RegExp(`^(${CRM_ENTITIES.join('|')})(\\.[A-Za-z_]*)?$`);

/** Every string literal (and template without substitutions) of a file that names a CRM entity. */
function entityLiterals(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && named.test(node.text))
      out.push(`${file}: ${node.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('CRM entity names outside src/service/', () => {
  const found = sourceFiles()
    .filter((f) => !f.startsWith('service/'))
    .flatMap(entityLiterals);

  it('reads the entity list from the CRM descriptors', () => {
    expect(CRM_ENTITIES).toEqual(expect.arrayContaining(['contacts', 'companies', 'deals', 'notes', 'associations']));
  });

  it('are never string literals (the engine learns them from the connector catalog)', () => {
    expect(found.filter((f) => !EXCEPTIONS.includes(f))).toEqual([]);
  });

  it('lists only exceptions that still exist', () => {
    expect(EXCEPTIONS.filter((e) => !found.includes(e))).toEqual([]);
  });
});
