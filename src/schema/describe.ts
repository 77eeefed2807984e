import { KIND_KEYS } from './step-kinds.js';

/** Splits a JSON pointer into unescaped segments. */
export function segments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The kind of the step object at `pointer`, if there is one there. */
export function stepKind(doc: unknown, pointer: string): string | undefined {
  const node = at(doc, pointer);
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  return KIND_KEYS.find((k) => k in (node as object));
}

/** The value at `pointer` in `doc`. */
export function at(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const seg of segments(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/** True when `pointer` names a step (…/steps/N). */
export function isStepPointer(pointer: string): boolean {
  return /\/steps\/\d+$/.test(pointer);
}

/**
 * A short human name for the node at `pointer`, relative to its step:
 * "execute step", "execute", "execute.params", "retry", "input \"limit\"", "recipe", "connector".
 */
export function describeNodeAt(doc: unknown, pointer: string): string {
  if (pointer === '') return 'recipe';
  const segs = segments(pointer);
  let lastStep = -1;
  for (let i = 1; i < segs.length; i += 1) if (segs[i - 1] === 'steps' && /^\d+$/.test(segs[i] as string)) lastStep = i;
  if (lastStep >= 0) {
    const stepPointer = `/${segs.slice(0, lastStep + 1).join('/')}`;
    const rest = segs.slice(lastStep + 1);
    if (rest.length === 0) {
      const kind = stepKind(doc, stepPointer);
      return kind ? `${kind} step` : 'step';
    }
    return join(rest);
  }
  if (segs[0] === 'inputs' && segs.length >= 2) {
    const tail = segs.slice(2);
    return `input "${segs[1]}"${tail.length ? `: ${join(tail)}` : ''}`;
  }
  return join(segs);
}

function join(segs: string[]): string {
  return segs.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}
