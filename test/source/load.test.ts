import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSource, parseSource, SOURCE_LIMITS } from '../../src/source/index.js';

const codes = (text: string) => parseSource(text, 'f.yaml').diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`);

describe('parseSource', () => {
  it('gives the JSON value and the position of every node and key', () => {
    const doc = parseSource('a: 1\nlist:\n  - x: "s"\n    y: [true, null]\n', 'f.yaml');
    expect(doc.diagnostics).toEqual([]);
    expect(doc.value).toEqual({ a: 1, list: [{ x: 's', y: [true, null] }] });
    expect(doc.locator.locate('/a')).toEqual({ line: 1, column: 4 });
    expect(doc.locator.locateKey('/a')).toEqual({ line: 1, column: 1 });
    expect(doc.locator.locate('/list/0/x')).toEqual({ line: 3, column: 8 });
    expect(doc.locator.locateKey('/list/0/y')).toEqual({ line: 4, column: 5 });
    expect(doc.locator.locate('/list/0/y/1')).toEqual({ line: 4, column: 15 });
    // a pointer without a node falls back to its nearest ancestor
    expect(doc.locator.locate('/list/0/missing')).toEqual({ line: 3, column: 5 });
  });

  it('maps offsets inside plain, quoted and block scalars to the file', () => {
    const text = [
      'p: ab ${ x }', //                         plain
      "q: 'it''s ${ x }'", //                    single-quoted, '' is one character
      'd: "a\\"b ${ x }"', //                    double-quoted with an escape
      'l: |', //                                 literal block
      '  first',
      '    ${ x }',
      'f: >-', //                                folded block
      '  one',
      '  two ${ x }',
      'm: plain', //                             multi-line plain
      '  more ${ x }',
    ].join('\n');
    const doc = parseSource(`${text}\n`, 'f.yaml');
    const posOf = (pointer: string, needle: string) => {
      const value = (doc.value as Record<string, string>)[pointer.slice(1)] as string;
      return doc.locator.locate(pointer, value.indexOf(needle));
    };
    expect(posOf('/p', '${')).toEqual({ line: 1, column: 7 });
    expect(posOf('/q', '${')).toEqual({ line: 2, column: 11 });
    expect(posOf('/d', '${')).toEqual({ line: 3, column: 10 });
    expect(posOf('/l', '${')).toEqual({ line: 6, column: 5 });
    expect(posOf('/f', '${')).toEqual({ line: 9, column: 7 });
    expect(posOf('/m', '${')).toEqual({ line: 11, column: 8 });
  });

  it('maps offsets past escapes and line breaks in double-quoted scalars', () => {
    const text = 'a: "x\\n\\u00e9\\t\\U0001F600 ${ y }"\nb: "one \\\n  two ${ y }"\nc: "one\n  two ${ y }"\n';
    const doc = parseSource(text, 'f.yaml');
    expect(doc.diagnostics).toEqual([]);
    const value = doc.value as Record<string, string>;
    expect(value.a).toBe('x\né\t\u{1F600} ${ y }');
    const at = (key: string) => doc.locator.locate(`/${key}`, (value[key] as string).indexOf('${'));
    // a: "x\n\u00e9\t\U0001F600 ${  — the $ is at column 27
    expect(at('a')).toEqual({ line: 1, column: 27 });
    expect(at('b')).toEqual({ line: 3, column: 7 });
    expect(at('c')).toEqual({ line: 5, column: 7 });
  });

  it('counts lines the same with CRLF line endings', () => {
    const doc = parseSource('a: 1\r\nl: |\r\n  one\r\n  two ${ x }\r\n', 'f.yaml');
    expect(doc.diagnostics).toEqual([]);
    const value = (doc.value as Record<string, string>).l as string;
    expect(doc.locator.locate('/l', value.indexOf('${'))).toEqual({ line: 4, column: 7 });
  });

  it('reports YAML syntax errors with their position', () => {
    expect(codes('a: [1, 2\nb: 3\n')[0]).toMatch(/ Y002$/);
    expect(codes('a:\n\t- b\n')).toEqual(['2:1 Y002']);
  });

  it('refuses duplicate keys at the second one', () => {
    expect(codes('a: 1\nb:\n  c: 1\n  c: 2\n')).toEqual(['4:3 Y003']);
    expect(parseSource('a: 1\na: 2\n', 'f.yaml').diagnostics[0]?.message).toContain('line 1');
  });

  it('refuses several documents, empty files, non-string keys, non-JSON scalars and unknown tags', () => {
    expect(codes('a: 1\n---\nb: 2\n')).toEqual(['2:1 Y008']);
    expect(codes('')).toEqual(['1:1 Y009']);
    expect(codes('# only a comment\n')).toEqual(['1:1 Y009']);
    expect(codes('a:\n  1: x\n')).toEqual(['2:3 Y006']);
    expect(codes('a:\n  [x]: y\n')).toEqual(['2:3 Y006']);
    expect(codes('a: .nan\nb: -.inf\n')).toEqual(['1:4 Y007', '2:4 Y007']);
    expect(codes('a: !secret x\n')).toEqual(['1:4 Y011']);
  });

  it('resolves ordinary aliases', () => {
    const doc = parseSource('base: &b { limit: 10 }\nuse: *b\n', 'f.yaml');
    expect(doc.diagnostics).toEqual([]);
    expect(doc.value).toEqual({ base: { limit: 10 }, use: { limit: 10 } });
  });

  it('applies merge keys: explicit members win, then earlier maps', () => {
    const doc = parseSource(
      'a: &a { x: 1, y: 1 }\nb: &b { y: 2, z: 2 }\nc:\n  <<: [*a, *b]\n  x: 0\nd: { <<: *b }\n',
      'f.yaml',
    );
    expect(doc.diagnostics).toEqual([]);
    expect((doc.value as Record<string, unknown>).c).toEqual({ x: 0, y: 1, z: 2 });
    expect((doc.value as Record<string, unknown>).d).toEqual({ y: 2, z: 2 });
    expect(codes('a: &a 1\nb:\n  <<: *a\n')).toEqual(['3:7 Y012']);
    // a quoted "<<" is an ordinary key
    expect(parseSource('a: { "<<": 1 }\n', 'f.yaml').value).toEqual({ a: { '<<': 1 } });
  });

  it('refuses a billion-laughs document without expanding it', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i += 1) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const doc = parseSource(`${lines.join('\n')}\n`, 'f.yaml');
    expect(doc.value).toBeUndefined();
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['Y004']);
  });

  it('refuses a document that grows too large through aliases even with few of them', () => {
    const big = `[${Array.from({ length: 2000 }, (_, i) => i).join(',')}]`;
    const uses = Array.from({ length: 60 }, (_, i) => `u${i}: *big`).join('\n');
    const doc = parseSource(`big: &big ${big}\n${uses}\n`, 'f.yaml');
    expect(60 * 2000).toBeGreaterThan(SOURCE_LIMITS.maxNodes);
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['Y005']);
  });

  it('refuses nesting deeper than the limit', () => {
    const n = SOURCE_LIMITS.maxDepth + 5;
    expect(codes(`a: ${'['.repeat(n)}${']'.repeat(n)}\n`)).toEqual(['1:104 Y013']);
    expect(codes(`a: ${'['.repeat(50)}${']'.repeat(50)}\n`)).toEqual([]);
  });

  it('refuses an alias to its own ancestor', () => {
    const doc = parseSource('a: &a\n  b: *a\n', 'f.yaml');
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['Y010']);
  });
});

describe('loadSource', () => {
  it('reads a file, and reports an unreadable one as Y001 instead of throwing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'source-'));
    const file = path.join(dir, 'r.yaml');
    writeFileSync(file, 'a: 1\n');
    expect((await loadSource(file)).value).toEqual({ a: 1 });
    const missing = await loadSource(path.join(dir, 'nope.yaml'), 'nope.yaml');
    expect(missing.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([['Y001', 'nope.yaml', 1]]);
    expect((await loadSource(dir, 'dir')).diagnostics.map((d) => d.code)).toEqual(['Y001']);
  });
});
