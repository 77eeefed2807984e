/** run/: the interpreter of compiled plans. */
export { runPlan, type RunOptions } from './run-plan.js';
export type { ConnectorApi, LogLevel, RunContext, RunEvent, StepProgress } from './context.js';
export type { DryRunProblem, DryRunWrite, ReportedError, RunReport, StepReport, StepStatus } from './report.js';
export { autoNext, itemsOf, type NextPage } from './page-keys.js';
export {
  loadRunnable,
  runLoaded,
  runRecipe,
  type PreparedRun,
  type Runnable,
  type RunLoadedOptions,
  type RunRecipeOptions,
  type RunRecipeResult,
} from './run-recipe.js';
export {
  beginRun,
  maskedInputs,
  maskedOf,
  resumeRun,
  type BeginRunOptions,
  type PreparedResume,
  type ResumeFlags,
} from './journal-session.js';
export type { DurableRun } from './run-plan.js';
export { isValidRunId, newRunId } from './run-id.js';
export { seededRandom } from './seeded-random.js';
export { declaredSecrets, recipeFiles } from './recipe-files.js';
export { runForeachChunk, type ChunkRunOptions } from './foreach-chunk.js';
export type {
  ChunkConnector,
  ChunkOutcome,
  ChunkStepStats,
  DistributedForeach,
  ForeachDistributor,
} from './distribute-types.js';
export type { ReplayPolicy } from './call-recorder.js';
export { planSettlement } from './settle-plan.js';
export { mergeChunkStepStats } from './distribute-stats.js';
