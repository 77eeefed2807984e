/** source/: YAML text → JSON value + locator (JSON pointer → line:col). The only user of `yaml`. */
export { loadSource, nestsDeeperThan, parseSource, SOURCE_LIMITS, type SourceDocument } from './load.js';
export { Locator, alignScalar, type Position, type ScalarSource } from './locator.js';
export { makeDiagnostic, formatDiagnostic, sortDiagnostics, type DiagnosticLoc } from './diagnostic.js';
export { closest, didYouMean, distance } from './suggest.js';
export { spliceMembers, type MemberEdit } from './splice.js';
