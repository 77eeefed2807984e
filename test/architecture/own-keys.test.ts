import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// House rule (issue 25): a lookup keyed by a string that may come from a request uses own properties only
// (Object.hasOwn, ownValue in src/service/core/own.ts, or a Map), so "constructor", "toString" or "__proto__"
// never find what Object.prototype inherits. This reads the service and the console (server side) with the
// type checker and lists every `record[key]` read and every `key in record` whose key is a string that is not
// a literal and whose record is a string-keyed object (not an array, not a Map): each must check own keys in
// the same statement, or be listed below with why its keys cannot come from a request.

const ROOT = resolve(import.meta.dirname, '../..');

/** `file: expression`, each with the reason its keys are the program's own. */
const ALLOWED = new Set([
  // Keys from the connector type's own declarations (entity specs, schemas), never from a request.
  'service/connectors/crm/context-source.ts: r.properties[name]', // name: the entity's contextProperties
  'service/connectors/crm/history-store.ts: out.get(row.record_id)![row.property]', // the history rows of properties just set up
  'service/connectors/crm/history-store.ts: hist[p]', // p: the properties hist was built with, in this function
  'service/connectors/crm/actions/archive.ts: params[idField]', // idField: the entity spec's id param
  'service/connectors/crm/actions/get.ts: params[idField]',
  'service/connectors/crm/actions/update.ts: params[idField]',
  'service/connectors/crm/actions/associations.ts: params[key]', // key: one of two fixed param names
  'service/connectors/crm/actions/update.ts: properties[k]', // k: a property the params schema allowed
  'service/connectors/crm/property-rules.ts: out[name]', // name: the type's defaults and required lists
  'service/connectors/crm/seed.ts: start[kind]', // kind: the seed's own entity list
  'service/connectors/crm/params-schemas.ts: e.descriptions[name]', // name: the entity spec's properties
  'service/connectors/crm/params-schemas.ts: e.enums[name]',
  'service/connectors/crm/params-schemas.ts: e.examples[name]',
  'service/connectors/crm/params-schemas.ts: e.defaults[name]',
  'service/connectors/files/seed.ts: raw[k]', // k: 'text' | 'json' | 'base64'
  // Keys from Object.keys/entries of the same object, so own by construction.
  'service/context-store/projection.ts: catalog.fields[k]',
  'service/context-store/sort-cursor.ts: catalog.fields[f]',
  'service/context-store/values.ts: doc[field]', // field: the catalog's fields (the connector's declaration)
  'service/context-store/fields.ts: doc[key]', // fieldReader: made for catalog fields only
  'service/context-store/values.ts: doc[f.key]', // searchableDoc: the catalog's fields
  'service/idempotency/idempotency-keys.ts: (v as Record<string, unknown>)[k]',
  'service/skills/schema-text.ts: props[name]', // name: the schema's own required list
  // The OpenAPI document, keyed by the registered routes ("METHOD path" of the routes the service declares).
  'service/openapi/document.ts: operationDocs[key]',
  'service/openapi/document.ts: pathSchema[name]',
  'service/openapi/document.ts: responseSchemas[key]',
  'service/openapi/document.ts: paths[path]',
]);

function violations(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (!config) throw new Error('cannot read tsconfig.json');
  const files = config.fileNames.filter((f) => /\/src\/(service|console)\//.test(f) && !f.includes('/console/web/'));
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const isOpenString = (node: ts.Expression) => (checker.getTypeAtLocation(node).flags & ts.TypeFlags.String) !== 0;
  const isStringRecord = (node: ts.Expression) => {
    const t = checker.getApparentType(checker.getTypeAtLocation(node));
    return (
      !checker.isArrayType(t) &&
      !checker.isTupleType(t) &&
      checker.getIndexInfoOfType(t, ts.IndexKind.String) !== undefined
    );
  };
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!files.includes(sf.fileName)) continue;
    const file = sf.fileName.slice(resolve(ROOT, 'src').length + 1);
    const statementOf = (node: ts.Node): ts.Node => {
      let n = node;
      while (n.parent && !ts.isStatement(n) && !ts.isSourceFile(n.parent)) n = n.parent;
      return n;
    };
    const guarded = (node: ts.Node) => /Object\.hasOwn\(/.test(statementOf(node).getText(sf));
    const visit = (node: ts.Node): void => {
      if (
        ts.isElementAccessExpression(node) &&
        !(ts.isBinaryExpression(node.parent) && node.parent.left === node && isAssignment(node.parent)) &&
        !ts.isDeleteExpression(node.parent) &&
        isOpenString(node.argumentExpression) &&
        isStringRecord(node.expression) &&
        !guarded(node)
      )
        found.push(`${file}: ${node.getText(sf)}`);
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.InKeyword &&
        isOpenString(node.left) &&
        !guarded(node)
      )
        found.push(`${file}: ${node.getText(sf)}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return [...new Set(found)].sort();
}

function isAssignment(b: ts.BinaryExpression): boolean {
  const k = b.operatorToken.kind;
  return k >= ts.SyntaxKind.FirstAssignment && k <= ts.SyntaxKind.LastAssignment;
}

describe('own keys', () => {
  it('every string-keyed lookup in the service and the console checks own keys (or is listed with its reason)', () => {
    const all = violations();
    expect(all.filter((v) => !ALLOWED.has(v))).toEqual([]);
    // A listed site that was fixed or moved leaves the list too.
    expect([...ALLOWED].filter((a) => !all.includes(a))).toEqual([]);
  }, 120_000);
});
