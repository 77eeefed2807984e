import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './import-graph.js';

// House rule 14: "which action writes" is decided in one place, src/client/actions.ts `writes` (the service's
// word, else the name rule). The service, which says what its actions do, is outside the check. (That the
// engine names no connector's entity is entity-names.test.ts, from the CRM's own descriptors.)

/** Action names the client's name rule knows to read: a list of them elsewhere is a second name rule. */
const READ_NAMES = new Set(['list', 'get', 'api_search', 'context_store_search', 'search', 'inspect', 'describe']);

const callee = (call: ts.CallExpression): string | undefined => {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
};

/** True when the node is, or holds, a call of the name rule (isWriteAction, writes). */
function callsRule(node: ts.Node): boolean {
  if (ts.isCallExpression(node) && ['isWriteAction', 'writes'].includes(callee(node) ?? '')) return true;
  return ts.forEachChild(node, callsRule) === true;
}

/** True when the node reads what a service said of writing (`.write`, `['write']`, `['x-write']`). */
function readsWord(node: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'write') return true;
  if (
    ts.isElementAccessExpression(node) &&
    ts.isStringLiteral(node.argumentExpression) &&
    ['write', 'x-write'].includes(node.argumentExpression.text)
  )
    return true;
  return ts.forEachChild(node, readsWord) === true;
}

/** Decisions of "which action writes" made in a file, as `file:line: why`. */
function writeDecisions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const at = (node: ts.Node, why: string): void => {
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${why}`);
  };
  const visit = (node: ts.Node): void => {
    // The service's word and the name rule weighed against each other: the job of `writes`.
    const branches = ts.isConditionalExpression(node)
      ? [node.condition, node.whenTrue, node.whenFalse]
      : ts.isBinaryExpression(node) &&
          [
            ts.SyntaxKind.QuestionQuestionToken,
            ts.SyntaxKind.BarBarToken,
            ts.SyntaxKind.AmpersandAmpersandToken,
          ].includes(node.operatorToken.kind)
        ? [node.left, node.right]
        : [];
    if (branches.some(callsRule) && branches.some((b) => !callsRule(b) && readsWord(b)))
      at(node, "the service's word or the name rule, chosen outside writes()");
    // x-write is handed to writes() as it came, never judged here.
    if (ts.isStringLiteral(node) && node.text === 'x-write') {
      const access = node.parent;
      const call = access?.parent;
      const handed =
        ts.isElementAccessExpression(access) &&
        call !== undefined &&
        ts.isCallExpression(call) &&
        callee(call) === 'writes' &&
        call.arguments[0] === access;
      if (!handed) at(node, 'x-write read outside writes()');
    }
    // A list of read action names: a second name rule.
    if (ts.isArrayLiteralExpression(node)) {
      const names = node.elements.filter((e) => ts.isStringLiteral(e) && READ_NAMES.has(e.text));
      if (names.length >= 2) at(node, 'a list of read action names (the name rule is actions.ts)');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const read = (file: string): string => readFileSync(join(SRC, file), 'utf8');

describe('which action writes is decided in src/client/ only', () => {
  it('no file outside src/client/ and src/service/ decides it', () => {
    const files = sourceFiles().filter((f) => !f.startsWith('client/') && !f.startsWith('service/'));
    expect(files.flatMap((f) => writeDecisions(f, read(f)))).toEqual([]);
  });

  it('the check finds the decisions the engine used to make itself', () => {
    // catalog/openapi.ts before `writes`, the service's word weighed by hand, and a name rule of its own.
    const old = [
      "const write = typeof variant['x-write'] === 'boolean' ? variant['x-write'] : isWriteAction(entity, action);",
      'const w = a.write ?? isWriteAction(a.entity, a.action);',
      "const READS = new Set(['list', 'get', 'api_search']);",
    ];
    for (const line of old) expect(writeDecisions('x.ts', line), line).not.toEqual([]);
    // The ways to ask the one definition pass.
    const fine = [
      "const write = writes(variant['x-write'], entity, action);",
      'const w = client.isWriteAction?.(id, entity, action) ?? writes(undefined, entity, action);',
      'if (call.write && dryRun) return call.dryRun();',
    ];
    expect(fine.flatMap((line) => writeDecisions('x.ts', line))).toEqual([]);
  });
});
