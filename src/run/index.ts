/** run/: starting, resuming and ending a run (startRun: the one way to start one), its journal session and report. */
export { runPlan, type RunOptions } from './run-plan.js';
export type {
  ConnectorApi,
  LogLevel,
  OutsideRequest,
  RunContext,
  RunEvent,
  StepProgress,
} from '../frame/run-context.js';
export type { DryRunProblem, DryRunWrite, ReportedError, RunReport, StepReport, StepStatus } from '../frame/report.js';
export { autoNext, itemsOf, type NextPage } from '../client/page-keys.js';
export {
  checkRecipe,
  loadRunnable,
  runRecipe,
  startRun,
  type CheckedRecipe,
  type CheckOptions,
  type CheckResult,
  type PreparedRun,
  type Runnable,
  type RunRecipeOptions,
  type RunRecipeResult,
  type StartRunOptions,
} from './start-run.js';
export {
  beginRun,
  changedInputs,
  maskedInputs,
  maskedOf,
  resumeRun,
  type BeginRunOptions,
  type PreparedResume,
  type ResumeFlags,
} from './journal-session.js';
export type { DurableRun } from './run-plan.js';
export { isValidRunId, newRunId } from './run-id.js';
export { maskProjectSecrets, projectRootOf, type ProjectSecretNames } from './project-secrets.js';
export { seededRandom } from '../calls/seeded-random.js';
export { calledPackages, declaredSecrets, recipeFiles, type CalledPackage } from './recipe-files.js';
export { runForeachChunk, type ChunkRunOptions } from './foreach-chunk.js';
export type {
  ChunkConnector,
  ChunkOutcome,
  ChunkStepStats,
  DistributedForeach,
  ForeachDistributor,
} from '../frame/distribute-types.js';
export type { ReplayPolicy } from '../calls/call-recorder.js';
export { planSettlement } from '../calls/settle-plan.js';
export { mergeChunkStepStats } from '../steps/distribute/distribute-stats.js';
