import { readFileSync } from 'node:fs';
import {
  type Alias,
  LineCounter,
  parseAllDocuments,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Document,
  type Node,
} from 'yaml';
import type { Diagnostic } from '../errors/index.js';
import { makeDiagnostic } from './diagnostic.js';
import { Locator } from './locator.js';

/** Limits that keep a hostile document from exhausting memory. */
export const SOURCE_LIMITS = {
  /** Alias nodes in one document. */
  maxAliases: 1000,
  /** Nodes in the document after aliases are expanded. */
  maxNodes: 100_000,
  /** Nesting of maps and lists; recipes need a handful, and deep nesting exhausts the stack of later stages. */
  maxDepth: 100,
} as const;

/** True when a JSON-like value nests maps and lists deeper than `limit` (counted without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A parsed recipe file: its JSON value and where every node is. `value` is absent when the file is unusable. */
export interface SourceDocument {
  readonly file: string;
  readonly text: string;
  readonly value?: unknown;
  readonly locator: Locator;
  readonly diagnostics: Diagnostic[];
}

/** Reads and parses a YAML file; an unreadable file is a Y001 diagnostic, never an exception. */
export async function loadSource(file: string, displayName: string = file): Promise<SourceDocument> {
  let text: string;
  try {
    // Synchronous on purpose: recipe files are small, and a batch of awaits on the thread pool is slower.
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    const lineCounter = new LineCounter();
    return {
      file: displayName,
      text: '',
      locator: new Locator('', lineCounter),
      diagnostics: [makeDiagnostic('Y001', { file: displayName, reason }, { file: displayName, line: 1, column: 1 })],
    };
  }
  return parseSource(text, displayName);
}

/** Parses YAML text: syntax errors, duplicate keys, aliases, tags and non-JSON values become diagnostics. */
export function parseSource(text: string, file: string): SourceDocument {
  const lineCounter = new LineCounter();
  const locator = new Locator(text, lineCounter);
  const diagnostics: Diagnostic[] = [];
  const at = (offset: number, pointer?: string) => ({
    file,
    ...locator.at(offset),
    ...(pointer === undefined ? {} : { pointer }),
  });
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: false, prettyErrors: false, merge: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const [doc, second] = list;
  if (!doc) {
    diagnostics.push(makeDiagnostic('Y009', {}, at(0)));
    return { file, text, locator, diagnostics };
  }
  if (second) diagnostics.push(makeDiagnostic('Y008', {}, at(second.range[0])));
  for (const error of doc.errors) {
    // The parser gives up on nesting its own stack cannot hold: that is the depth limit, said as such.
    if (/call stack/i.test(error.message))
      diagnostics.push(makeDiagnostic('Y013', { limit: SOURCE_LIMITS.maxDepth }, at(error.pos[0])));
    else diagnostics.push(makeDiagnostic('Y002', { reason: error.message.split('\n')[0] }, at(error.pos[0])));
  }
  for (const warning of doc.warnings) {
    if (warning.code === 'TAG_RESOLVE_FAILED') {
      const tag = /tag: (\S+)/.exec(warning.message)?.[1] ?? '?';
      diagnostics.push(makeDiagnostic('Y011', { tag }, at(warning.pos[0])));
    }
  }
  if (doc.errors.length > 0) return { file, text, locator, diagnostics };
  if (doc.contents === null) {
    diagnostics.push(makeDiagnostic('Y009', {}, at(0)));
    return { file, text, locator, diagnostics };
  }
  const builder = new ValueBuilder(doc, locator, file, diagnostics);
  const value = builder.build();
  return value === ABORTED ? { file, text, locator, diagnostics } : { file, text, value, locator, diagnostics };
}

const ABORTED = Symbol('aborted');
const MERGE_KEY = '<<';

/** Walks the YAML nodes into a JSON value, recording positions and refusing what JSON cannot hold. */
class ValueBuilder {
  private nodes = 0;
  private aliases = 0;
  private readonly expanding = new Set<Node>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly locator: Locator,
    private readonly file: string,
    private readonly diagnostics: Diagnostic[],
  ) {}

  build(): unknown {
    try {
      return this.walk(this.doc.contents as Node, '', undefined);
    } catch (err) {
      if (err === ABORTED) return ABORTED;
      throw err;
    }
  }

  private report(
    code: 'Y003' | 'Y004' | 'Y005' | 'Y006' | 'Y007' | 'Y010' | 'Y012' | 'Y013',
    params: Record<string, unknown>,
    offset: number,
    pointer: string,
  ): void {
    this.diagnostics.push(makeDiagnostic(code, params, { file: this.file, ...this.locator.at(offset), pointer }));
  }

  /**
   * Reports at the node of the document's own path that led here: inside an alias expansion the node being
   * walked sits under the anchor, elsewhere in the file, which would point the reader to the wrong place.
   */
  private reportAtPath(code: 'Y004' | 'Y005', params: Record<string, unknown>, pointer: string): void {
    this.diagnostics.push(makeDiagnostic(code, params, { file: this.file, ...this.locator.locate(pointer), pointer }));
  }

  private walk(node: Node, pointer: string, keyAt: number | undefined, depth = 0): unknown {
    this.nodes += 1;
    const start = node.range?.[0] ?? 0;
    if (this.nodes > SOURCE_LIMITS.maxNodes) {
      this.reportAtPath('Y005', { limit: SOURCE_LIMITS.maxNodes }, pointer);
      throw ABORTED;
    }
    if (depth > SOURCE_LIMITS.maxDepth) {
      this.report('Y013', { limit: SOURCE_LIMITS.maxDepth }, start, pointer);
      throw ABORTED;
    }
    if (isAlias(node)) return this.walkAlias(node, pointer, keyAt, depth);
    if (isScalar(node)) {
      const value = node.value;
      const scalar =
        typeof value === 'string'
          ? { style: String(node.type ?? 'PLAIN'), start, end: node.range?.[1] ?? start, value }
          : undefined;
      this.locator.record(pointer, {
        valueAt: start,
        ...(keyAt === undefined ? {} : { keyAt }),
        ...(scalar ? { scalar } : {}),
      });
      if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      this.report('Y007', { value: node.source ?? String(value) }, start, pointer);
      return null;
    }
    this.locator.record(pointer, { valueAt: start, ...(keyAt === undefined ? {} : { keyAt }) });
    if (isSeq(node))
      return node.items.map((item, i) => this.walk(item as Node, `${pointer}/${i}`, undefined, depth + 1));
    if (isMap(node)) return this.walkMap(node.items, pointer, depth + 1);
    return null;
  }

  private walkMap(
    items: readonly { key: unknown; value: unknown }[],
    pointer: string,
    depth: number,
  ): Record<string, unknown> {
    const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    const firstLine = new Map<string, number>();
    const merges: Node[] = [];
    for (const pair of items) {
      const keyNode = pair.key as Node | null;
      const keyAt = keyNode?.range?.[0] ?? 0;
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (key === MERGE_KEY && isScalar(keyNode) && keyNode.type === 'PLAIN' && pair.value) {
        merges.push(pair.value as Node);
        continue;
      }
      if (typeof key !== 'string') {
        const type =
          key === null || key === undefined ? (keyNode && !isScalar(keyNode) ? 'a collection' : 'null') : typeof key;
        this.report(
          'Y006',
          { type: `${type}${isScalar(keyNode) ? ` ${String(keyNode.source ?? key)}` : ''}` },
          keyAt,
          pointer,
        );
        continue;
      }
      const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const seen = firstLine.get(key);
      if (seen !== undefined) {
        this.report('Y003', { key, firstLine: seen }, keyAt, child);
        continue;
      }
      firstLine.set(key, this.locator.at(keyAt).line);
      const valueNode = pair.value as Node | null;
      if (valueNode === null) {
        this.locator.record(child, { valueAt: keyAt, keyAt });
        result[key] = null;
        continue;
      }
      result[key] = this.walk(valueNode, child, keyAt, depth);
    }
    for (const source of merges) this.merge(source, pointer, result, depth);
    return { ...result };
  }

  /**
   * YAML merge keys (`<<: *defaults` or `<<: [*a, *b]`): the maps' members are added where the map does not
   * set them itself; with a list, earlier maps win. Anything else after `<<` is refused as a non-map.
   */
  private merge(source: Node, pointer: string, result: Record<string, unknown>, depth: number): void {
    const sources = isSeq(source) ? (source.items as Node[]) : [source];
    for (const item of sources) {
      const value = this.walk(item, `${pointer}/<<`, undefined, depth);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        this.report('Y012', {}, item.range?.[0] ?? 0, pointer);
        continue;
      }
      for (const [key, member] of Object.entries(value)) {
        if (Object.hasOwn(result, key)) continue;
        result[key] = member;
      }
    }
  }

  private walkAlias(alias: Alias, pointer: string, keyAt: number | undefined, depth: number): unknown {
    const start = alias.range?.[0] ?? 0;
    this.aliases += 1;
    if (this.aliases > SOURCE_LIMITS.maxAliases) {
      this.reportAtPath('Y004', { reason: `more than ${SOURCE_LIMITS.maxAliases} aliases expanded` }, pointer);
      throw ABORTED;
    }
    const target = alias.resolve(this.doc) as Node | undefined;
    if (!target) return null; // yaml already reported the unknown anchor as a syntax error
    if (this.expanding.has(target)) {
      this.report('Y010', { name: alias.source }, start, pointer);
      return null;
    }
    this.locator.record(pointer, { valueAt: start, ...(keyAt === undefined ? {} : { keyAt }) });
    this.expanding.add(target);
    try {
      return this.walk(target, pointer, keyAt, depth);
    } finally {
      this.expanding.delete(target);
    }
  }
}
