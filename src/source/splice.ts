import { isMap, isScalar, parseDocument, stringify, type Node, type Pair, type YAMLMap } from 'yaml';

/** A new value for the member `key` of the map at `parent` (JSON pointer segments, unescaped). */
export interface MemberEdit {
  readonly parent: readonly (string | number)[];
  readonly key: string;
  readonly value: unknown;
}

/**
 * Rewrites members of maps in a YAML text and leaves every other byte as it was (comments, quoting, order):
 * an existing member is replaced where it stands, a missing one is appended to its block map. A flow map
 * (`{ ... }`) that gets a new member is rewritten whole in block form. New values are written in block style.
 * A value of undefined removes the member. Edits whose parent map does not exist are ignored (give the
 * parent's own member instead).
 */
export function spliceMembers(text: string, edits: readonly MemberEdit[]): string {
  const doc = parseDocument(text, { uniqueKeys: false });
  const replacements: { start: number; end: number; text: string }[] = [];
  const flowParents = new Map<YAMLMap, { pair: Pair | undefined; values: Record<string, unknown> }>();
  for (const edit of edits) {
    const parent = doc.getIn(edit.parent, true) as Node | undefined;
    if (!isMap(parent)) continue;
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === edit.key);
    if (parent.flow) {
      const entry = flowParents.get(parent) ?? { pair: parentPair(doc.contents as Node, parent), values: {} };
      entry.values[edit.key] = edit.value;
      if (edit.value === undefined) delete entry.values[edit.key];
      flowParents.set(parent, entry);
      continue;
    }
    const column = columnOf(text, (parent.range ?? [0])[0]);
    if (pair && isScalar(pair.key) && pair.key.range && pair.value && (pair.value as Node).range) {
      const start = pair.key.range[0];
      const end = ((pair.value as Node).range as [number, number, number])[1];
      // undefined removes the member, with the indentation and line break before it.
      if (edit.value === undefined) replacements.push({ start: text.lastIndexOf('\n', start - 1), end, text: '' });
      else replacements.push({ start, end, text: render(edit.key, edit.value, columnOf(text, start)) });
    } else if (edit.value !== undefined) {
      const end = lastItemEnd(parent, text);
      replacements.push({ start: end, end, text: `\n${' '.repeat(column)}${render(edit.key, edit.value, column)}` });
    }
  }
  for (const [map, { pair, values }] of flowParents) {
    if (!pair || !isScalar(pair.key) || !pair.key.range || !map.range) continue;
    const merged: Record<string, unknown> = { ...(map.toJSON() as Record<string, unknown>), ...values };
    for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
    const start = pair.key.range[0];
    replacements.push({
      start,
      end: map.range[1],
      text: render(String(pair.key.value), merged, columnOf(text, start)),
    });
  }
  replacements.sort((a, b) => b.start - a.start);
  let out = text;
  for (const r of replacements) out = out.slice(0, r.start) + r.text + out.slice(r.end);
  return out;
}

/** `key: value` in block style, continuation lines indented to `column`, no final newline. */
function render(key: string, value: unknown, column: number): string {
  // YAML 1.1 rules for quoting: strings that other YAML readers take for dates or booleans (2026-03-01, yes, on)
  // are quoted, so editors and the language server read the value the test runner reads.
  const block = stringify({ [key]: value }, { indent: 2, lineWidth: 0, version: '1.1' }).trimEnd();
  return block
    .split('\n')
    .map((line, i) => (i === 0 ? line : `${' '.repeat(column)}${line}`))
    .join('\n');
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The end of the line where the last member of a block map ends (after a comment on that line). */
function lastItemEnd(map: YAMLMap, text: string): number {
  const last = map.items[map.items.length - 1];
  const node = (last?.value ?? last?.key) as Node | undefined;
  const end = node?.range?.[1] ?? map.range?.[1] ?? text.length;
  const newline = text.indexOf('\n', end);
  return newline === -1 ? text.length : newline;
}

/** The pair whose value is `target`, searched from `node`. */
function parentPair(node: Node, target: Node): Pair | undefined {
  if (!isMap(node) && !(node as { items?: unknown }).items) return undefined;
  for (const item of (node as { items: unknown[] }).items) {
    const pair = item as Pair;
    if (pair && typeof pair === 'object' && 'value' in pair) {
      if (pair.value === target) return pair;
      const found = pair.value ? parentPair(pair.value as Node, target) : undefined;
      if (found) return found;
    } else if (item && typeof item === 'object') {
      const found = parentPair(item as Node, target);
      if (found) return found;
    }
  }
  return undefined;
}
