/** expr/: `${ }` templates and JSONata, compiled once with positions. The only user of `jsonata`. */
export { compileValue, escapePointer, type CompiledValue } from './value.js';
export { evalValue, leafNow, mapLeavesNow, type LeafValue } from './evaluate.js';
export { collectExpressions, describeEngine, describeHandBack } from './describe.js';
export { toRecipeError } from './expr-errors.js';
export { evaluateExpression, lineAndColumn, type EvaluateExpressionOptions } from './evaluate-expression.js';
export { listBuiltins, isBuiltin } from './builtins.js';
export { JsonataExpr, parseExpr, type Engine, type ExprSyntaxError } from './compiled-expr.js';
export { scanTemplate, type Segment, type ScanResult } from './scan.js';
export type { VariableRef, MemberRef } from './analyze.js';
export type { ExprHabit } from './habits.js';
export type { Position, ValueSite, SourceLoc, CompiledExpr, Value, EvalLimits, VisitReads } from './types.js';
export { LATER } from './types.js';
