import type { Step } from '../../compile/plan.js';
import type { RecipeError } from '../../errors/index.js';
import type { SpanOutcome, TraceSpan } from '../../telemetry/index.js';
import { isInterrupt } from '../../frame/step-errors.js';
import type { RunState } from '../../calls/run-state.js';

/** A trace span for one visit of `step`, under the span its list runs in; undefined when the run is not traced. */
export function traceStep(state: RunState, step: Step): TraceSpan | undefined {
  return state.span?.step({
    id: step.id ?? `${step.kind}@${step.loc.line}`,
    kind: step.kind,
    file: step.loc.file,
    line: step.loc.line,
  });
}

/** How a step visit (or a loop iteration) ended, for its span: the tracer masks the message's secrets. */
export function spanOutcome(visit: string, error: RecipeError | undefined): SpanOutcome {
  const status =
    error && isInterrupt(error) ? 'interrupted' : visit === 'failed' || visit === 'continued' ? visit : 'ok';
  return error ? { status, error: { code: error.code, message: error.message } } : { status };
}
