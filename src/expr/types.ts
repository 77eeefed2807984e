import type { Diagnostic } from '../errors/index.js';
import type { SourceLoc } from '../compile/plan.js';

/** A 1-based position in a file. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * Where a YAML value came from, so expression problems can be reported inside the file:
 * `locate(pointer, offset)` gives the position of character `offset` of the string scalar at `pointer`
 * (or of the node itself without an offset). src/source's Locator provides it; without one, every
 * position is `fallback`.
 */
export interface ValueSite {
  readonly file: string;
  readonly pointer: string;
  readonly locate?: (pointer: string, offset?: number) => Position | undefined;
  readonly fallback?: Position;
}

export type { Diagnostic, SourceLoc };
