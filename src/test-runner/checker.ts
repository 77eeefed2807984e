import type { Diagnostic, SourceLoc } from '../errors/index.js';
import { makeDiagnostic, type Locator } from '../source/index.js';
import { compileExpected, type Expected } from './expected.js';

/** Shorthands for diagnostics at a pointer of the test file. */
export class Checker {
  constructor(
    readonly file: string,
    readonly locator: Locator,
    readonly diagnostics: Diagnostic[],
  ) {}

  at(pointer: string): SourceLoc {
    return { file: this.file, ...this.locator.locate(pointer), pointer };
  }

  /** The position of a member's key (where a misspelt name is). */
  atKey(pointer: string): SourceLoc {
    return { file: this.file, ...this.locator.locateKey(pointer), pointer };
  }

  report(code: Parameters<typeof makeDiagnostic>[0], params: Record<string, unknown>, pointer: string): void {
    this.diagnostics.push(makeDiagnostic(code, params, this.at(pointer)));
  }

  expected(raw: unknown, pointer: string): Expected {
    return compileExpected(raw, pointer, this.file, this.locator, this.diagnostics);
  }
}
