import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root (test/docs/ is two levels down). */
export const ROOT = new URL('../../', import.meta.url).pathname;

/** A fenced code block in a Markdown file, with the marker comment written just above it (if any). */
export interface DocBlock {
  /** Path relative to the repository root, e.g. docs/running.md. */
  readonly file: string;
  /** 1-based line of the block's first content line (the line after the opening fence). */
  readonly line: number;
  /** The fence's language (yaml, sh, ...), lower-case; '' when none. */
  readonly lang: string;
  readonly text: string;
  /** `<!-- runnable -->` → {name: 'runnable', args: ''}; `<!-- runnable: -i days=30 -->` → args '-i days=30'. */
  readonly marker?: { readonly name: string; readonly args: string };
}

/** README.md and every docs/*.md, so docs other lanes add are picked up without touching the test. */
export function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

const MARKER = /^<!--\s*([a-z-]+)(?::\s*(.*?))?\s*-->$/;

/** Every fenced block of a Markdown file (``` or ~~~, any length), markers read only outside fences. */
export function extractBlocks(file: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let lastText = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) {
      if (lines[i]!.trim() !== '') lastText = lines[i]!.trim();
      continue;
    }
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith(fence)) body.push(lines[j++]!);
    const marker = MARKER.exec(lastText);
    blocks.push({
      file,
      line: i + 2,
      lang: (open[2] ?? '').toLowerCase(),
      text: `${body.join('\n')}\n`,
      ...(marker ? { marker: { name: marker[1]!, args: marker[2] ?? '' } } : {}),
    });
    lastText = '';
    i = j;
  }
  return blocks;
}
