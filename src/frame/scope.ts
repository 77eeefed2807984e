import type { EvalLimits, VisitReads } from '../expr/index.js';

/**
 * Scope frames: each step list runs in its own frame, child of the enclosing one. A step id, a set/assign
 * name or a loop variable binds in the current frame, so it is visible to later steps of the same list and
 * to nested lists, never outside. Lookups walk outwards; bindings() flattens for JSONata.
 */
/** What bounds the expressions of a plan run: the run's clock and the recipe's expression_timeout_ms. */
export interface ExprBounds {
  readonly now: () => number;
  readonly timeoutMs: number;
}

export class Scope {
  private readonly vars = new Map<string, unknown>();
  /** On a plan's root frame: the clock and the recipe's expression_timeout_ms. */
  private bounds: ExprBounds | undefined;
  /** Deadlines (absolute, by the bounds' clock) of the steps with timeout_ms now running in this frame. */
  private deadlines: { at: number; timeoutMs: number }[] | undefined;
  /** For a called recipe's root: the caller's frame, whose step deadlines still apply. */
  private caller: Scope | undefined;
  /** The step visit now running in this frame: what `$now()`/`$millis()` and `$random()`/`$shuffle()` read. */
  private visit: VisitReads | undefined;

  constructor(private readonly parent: Scope | null = null) {}

  /** Makes this frame a plan's root: expressions in it and inside it are bounded by `bounds`. */
  bound(bounds: ExprBounds, caller?: Scope): void {
    this.bounds = bounds;
    this.caller = caller;
  }

  /**
   * A step visit starts in this frame (steps of one frame run one at a time; concurrent loop items have
   * frames of their own): expressions in and under the frame read its clock for `$now()` and its chance for
   * `$random()` until the next visit. Nothing ends it (no try/finally per step visit): what a frame evaluates
   * after its last step (a loop's collect) reads the last visit's, which are journaled like any other.
   */
  enterVisit(visit: VisitReads): void {
    this.visit = visit;
  }

  /** A step with timeout_ms starts in this frame; the returned function ends it. */
  pushDeadline(at: number, timeoutMs: number): () => void {
    const entry = { at, timeoutMs };
    (this.deadlines ??= []).push(entry);
    return () => {
      const i = this.deadlines?.lastIndexOf(entry) ?? -1;
      if (i >= 0) this.deadlines?.splice(i, 1);
    };
  }

  /**
   * The limits of an expression evaluated now in this frame: the recipe's expression_timeout_ms from
   * now, or the earliest deadline of a step running around it when that comes first. Undefined for a
   * frame outside any plan run (unbounded).
   */
  limits(): EvalLimits | undefined {
    let bounds: ExprBounds | undefined;
    let earliest: { at: number; timeoutMs: number } | undefined;
    let visit: VisitReads | undefined;
    for (let s: Scope | undefined = this; s !== undefined; s = s.parent ?? s.caller) {
      bounds ??= s.bounds;
      visit ??= s.visit;
      const deadlines = s.deadlines;
      if (deadlines !== undefined)
        for (const d of deadlines) if (earliest === undefined || d.at < earliest.at) earliest = d;
    }
    if (bounds === undefined) return undefined;
    const recipeDeadline = bounds.now() + bounds.timeoutMs;
    const step = earliest !== undefined && earliest.at < recipeDeadline ? earliest : undefined;
    // Every expression a step evaluates asks for its limits: one literal of one shape, no spread (a spread into
    // a literal is a slow path in V8; with it this was the per-step figure's costliest function, bench/README.md).
    return {
      deadline: step === undefined ? recipeDeadline : step.at,
      now: bounds.now,
      timeoutMs: step === undefined ? bounds.timeoutMs : step.timeoutMs,
      source: step === undefined ? 'recipe' : 'step',
      reads: visit,
    };
  }

  /** A new frame inside this one. */
  child(): Scope {
    return new Scope(this);
  }

  /** Binds `name` (without $) in this frame. */
  set(name: string, value: unknown): void {
    this.vars.set(name, value);
  }

  /** The value bound to `name` in this frame or the nearest enclosing one. */
  get(name: string): unknown {
    for (let s: Scope | null = this; s; s = s.parent) if (s.vars.has(name)) return s.vars.get(name);
    return undefined;
  }

  /**
   * The value bound to `name` in this frame or the nearest enclosing one, or `absent` when it is bound in none:
   * has() and get() in one walk, for what runs per loop item (an expression's bindings).
   */
  lookup(name: string, absent: unknown): unknown {
    for (let s: Scope | null = this; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v !== undefined || s.vars.has(name)) return v;
    }
    return absent;
  }

  /** True when `name` is bound in this frame or an enclosing one (even to undefined). */
  has(name: string): boolean {
    for (let s: Scope | null = this; s; s = s.parent) if (s.vars.has(name)) return true;
    return false;
  }

  /** Every visible name and its value (inner frames win), as JSONata variables. */
  bindings(extra?: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const chain: Scope[] = [];
    for (let s: Scope | null = this; s; s = s.parent) chain.push(s);
    const out: Record<string, unknown> = {};
    for (let i = chain.length - 1; i >= 0; i--) for (const [k, v] of chain[i]!.vars) out[k] = v;
    if (extra) Object.assign(out, extra);
    return out;
  }
}
