/** test-runner/: `recipe test`, tests of recipes written in YAML, run against the embedded service. */
export { runTests, type RunTestsOptions } from './run-tests.js';
export { loadTestFile, type LoadedTestFile } from './load-test-file.js';
export { findTestFiles, TEST_FILE } from './discover.js';
export type { CaseResult, Failure, TestRunResult } from './results.js';
export { summarize } from './results.js';
export type { RecipeCoverage, CoverageStep } from './coverage.js';
export {
  formatFileResults,
  formatSummary,
  formatDiagnostics,
  formatCoverage,
  NO_PAINT,
  type Paint,
} from './reporters/text.js';
export { formatJunit } from './reporters/junit.js';
export { formatJson } from './reporters/json.js';
export { formatGithubAnnotations } from './reporters/github.js';
