/**
 * The state of the compiled evaluation under way: the timestamp `$now()` and `$millis()` answer, and the
 * bound it must stop at. A compiled expression runs synchronously from its first node to its result, so no
 * timer can interrupt it and no other evaluation can start meanwhile: one module-level slot is enough, and
 * the loops and calls of compiled code count turns in it and look at the clock every CHECK_EVERY turns.
 */
import type { EvalLimits } from '../types.js';
import { ExprError } from './errors.js';
import { nextEvaluation, settle } from './sequence.js';

/** Turns between two looks at the clock: cheap enough for a tight loop, fine enough for a timeout. */
const CHECK_EVERY = 1024;

/**
 * The evaluation under way, as three slots rather than one object: an evaluation starts per expression a step
 * evaluates (several per loop item), and allocating its state cost the per-step figure (bench/README.md).
 */
let running = false;
let runningLimits: EvalLimits | undefined;
/** Read at the first `$now()`/`$millis()` of the evaluation (evaluationTimestamp). */
let runningTimestamp: number | undefined;

/** Runs `body` as one evaluation; nested calls (a compiled lambda called back by jsonata) reuse the outer one. */
export function withEvaluation<T>(limits: EvalLimits | undefined, body: () => T): T {
  if (running) return body();
  running = true;
  runningLimits = limits;
  runningTimestamp = undefined;
  nextEvaluation();
  try {
    const result = body();
    settle(result);
    return result;
  } finally {
    running = false;
    runningLimits = undefined;
  }
}

/** True while a compiled evaluation runs. */
export function inEvaluation(): boolean {
  return running;
}

/** The bounds of the evaluation under way (a lambda made now is bounded like it when called later). */
export function currentLimits(): EvalLimits | undefined {
  return runningLimits;
}

/** The evaluation's timestamp (the same for every `$now()` of one evaluation, as in jsonata). */
export function evaluationTimestamp(): number {
  if (!running) return Date.now();
  runningTimestamp ??= timestampOf(runningLimits);
  return runningTimestamp;
}

/** A draw of chance for `$random()`/`$shuffle()`: the run's source for the evaluation, else Math.random. */
export function evaluationRandom(): number {
  return randomOf(runningLimits);
}

/** A draw from the source of `limits` (the step visit's), else Math.random. */
export function randomOf(limits: EvalLimits | undefined): number {
  return limits?.reads?.random() ?? Math.random();
}

/** What `$now()`/`$millis()` answer under `limits`: the run's timestamp for it, else the wall clock. */
export function timestampOf(limits: EvalLimits | undefined): number {
  return limits?.reads?.clock() ?? Date.now();
}

/** One turn of a loop or one call: stops the evaluation once it is past its deadline. */
export function tick(): void {
  if (--turnsLeft !== 0) return;
  turnsLeft = CHECK_EVERY;
  if (running) checkDeadline(runningLimits);
}

/** Turns until the next look at the clock. */
let turnsLeft = CHECK_EVERY;

/** Throws D1012 (with the bound that was hit) when `limits` has expired. */
export function checkDeadline(limits: EvalLimits | undefined): void {
  if (limits !== undefined && limits.now() > limits.deadline) throw timeoutError(limits);
}

/** The error of an evaluation stopped by its bound; run/ maps it by `limit` to the step's or the recipe's code. */
export function timeoutError(limits: EvalLimits): ExprError {
  const err = new ExprError('D1012', { value: limits.timeoutMs });
  (err as ExprError & { limit?: EvalLimits['source'] }).limit = limits.source;
  return err;
}
