/**
 * The public API of the `recipe` package: load and check recipes, run them against a connector service,
 * and start the embedded service. The CLI is a thin layer over these.
 */
export { loadRecipe, resolveInputs, validateFiles } from './compile/index.js';
export type { LoadOptions, LoadResult, ResolvedInputs, FileResult, ValidateOptions } from './compile/index.js';
export { embeddedCatalog, catalogFromOpenApi, checkParams } from './catalog/index.js';
export type {
  ConnectorCatalog,
  CatalogType,
  CatalogEntity,
  CatalogAction,
  AssociationType,
  ParamProblem,
} from './catalog/index.js';
export type { Plan, Step, StepKind, Value, CompiledExpr, ConnectorRef, InputSpec, SourceLoc } from './compile/plan.js';
export { evaluateExpression } from './expr/index.js';
export type { EvaluateExpressionOptions } from './expr/index.js';
export { runPlan, runRecipe, checkRecipe, startRun, loadRunnable, beginRun, resumeRun } from './run/index.js';
export type { DurableRun, PreparedResume, ResumeFlags, BeginRunOptions } from './run/index.js';
export type { CheckedRecipe, CheckOptions, CheckResult, PreparedRun, Runnable, StartRunOptions } from './run/index.js';
export { openJournal, openJournalReader, journalPath } from './journal/index.js';
export type {
  JournalStore,
  JournalReader,
  RunJournal,
  RunRecord,
  RunSummary,
  RunStatus,
  AttemptRecord,
  ExchangeRecord,
  StepEventRecord,
  RunFilter,
} from './journal/index.js';
export type {
  RunOptions,
  RunRecipeOptions,
  RunRecipeResult,
  RunReport,
  StepReport,
  StepStatus,
  DryRunWrite,
  DryRunProblem,
  RunEvent,
  ConnectorApi,
} from './run/index.js';
export {
  ConnectorClient,
  Redactor,
  readConnectionConfig,
  completeConnectionConfig,
  isWriteAction,
} from './client/index.js';
export type {
  ConnectorDefinition,
  ConnectorQuery,
  ConnectorSummary,
  InspectAction,
  InspectAnswer,
  SkillBlock,
  SkillDocs,
  SkillSectionRef,
  SummarizedSourceTemplate,
  Workspace,
  ClientOptions,
  ConnectionConfig,
  ConnectionFlags,
  Envelope,
  ExecuteRequest,
  RetryPolicy,
} from './client/index.js';
export { startService } from './service/start.js';
export type { StartServiceOptions, RunningService } from './service/start.js';
export { loadTracer, tracingEnabled } from './telemetry/index.js';
export type { RunTracer } from './telemetry/index.js';
export { RecipeError, catalog, formatLocation } from './errors/index.js';
export type { Diagnostic, ErrorCode, Location } from './errors/index.js';
