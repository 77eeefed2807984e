import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../src/expr/index.js';

describe('scanTemplate', () => {
  it('keeps text without ${ as one text segment', () => {
    expect(scanTemplate('plain text $x {y}')).toEqual({
      ok: true,
      segments: [{ kind: 'text', text: 'plain text $x {y}' }],
    });
  });

  it('splits text and expressions, with the offset of each expression source', () => {
    const r = scanTemplate('a ${ $x } b ${$y}');
    expect(r).toEqual({
      ok: true,
      segments: [
        { kind: 'text', text: 'a ' },
        { kind: 'expr', source: ' $x ', offset: 4 },
        { kind: 'text', text: ' b ' },
        { kind: 'expr', source: '$y', offset: 14 },
      ],
    });
  });

  it('turns $${ into a literal ${', () => {
    expect(scanTemplate('cost: $${ not an expr }')).toEqual({
      ok: true,
      segments: [{ kind: 'text', text: 'cost: ${ not an expr }' }],
    });
  });

  it('finds the closing brace past nested braces, strings, backticks and comments', () => {
    const source = ' {"a": "}", \'b\': \'}\'}.`x}y` /* } */ ';
    const r = scanTemplate(`\${${source}}tail`);
    expect(r.ok && r.segments).toEqual([
      { kind: 'expr', source, offset: 2 },
      { kind: 'text', text: 'tail' },
    ]);
  });

  it('skips regex literals, but not divisions', () => {
    expect(scanTemplate('${ $match($s, /a"}b/i) }x')).toEqual({
      ok: true,
      segments: [
        { kind: 'expr', source: ' $match($s, /a"}b/i) ', offset: 2 },
        { kind: 'text', text: 'x' },
      ],
    });
    expect(
      scanTemplate('${ $a / 2 } and ${ ($b) / 4 }').ok && scanTemplate('${ $a / 2 } and ${ ($b) / 4 }'),
    ).toMatchObject({
      segments: [{ source: ' $a / 2 ' }, { text: ' and ' }, { source: ' ($b) / 4 ' }],
    });
  });

  it('skips escaped quotes inside JSONata strings', () => {
    const r = scanTemplate('${ "a\\"}" }');
    expect(r.ok && r.segments).toEqual([{ kind: 'expr', source: ' "a\\"}" ', offset: 2 }]);
  });

  it('reports an unclosed ${ with its offset', () => {
    expect(scanTemplate('ok ${ 1 } then ${ 2 + ')).toEqual({ ok: false, offset: 15, unclosed: 'brace', openAt: 15 });
    expect(scanTemplate('${ {"a": 1 }')).toEqual({ ok: false, offset: 0, unclosed: 'brace', openAt: 0 });
    expect(scanTemplate('${ /* never closed }')).toEqual({ ok: false, offset: 0, unclosed: 'comment', openAt: 3 });
    expect(scanTemplate('x ${ "abc }')).toEqual({ ok: false, offset: 2, unclosed: 'string', openAt: 5 });
  });
});
