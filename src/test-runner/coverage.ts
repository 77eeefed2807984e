import type { Plan, Step } from '../compile/plan.js';
import type { RunEvent } from '../run/index.js';

/** What happened to one step over one run: runs started, times `when` skipped it, on_error: continue taken. */
export interface StepHits {
  ran: number;
  skipped: number;
  continued: number;
}

/**
 * Counts, per step key (`file#pointer`, the key the run's progress events carry), how often a step ran, was
 * skipped by `when` (a step-end with no step-start: the guard was false), and took its on_error: continue branch.
 */
export class HitCounter {
  readonly hits: Record<string, StepHits> = {};

  onEvent(e: RunEvent): void {
    const h = (this.hits[e.step.key] ??= { ran: 0, skipped: 0, continued: 0 });
    if (e.type === 'step-start') h.ran++;
    else if (e.type === 'step-end') {
      h.skipped++;
      if (e.status === 'continued') h.continued++;
    }
  }

  /** Plain counts: ends minus starts are the `when` skips. */
  result(): Record<string, StepHits> {
    const out: Record<string, StepHits> = {};
    for (const [key, h] of Object.entries(this.hits))
      out[key] = { ran: h.ran, skipped: Math.max(0, h.skipped - h.ran), continued: h.continued };
    return out;
  }
}

/** One step of a recipe as coverage lists it. */
export interface CoverageStep {
  readonly id: string;
  readonly kind: string;
  readonly line: number;
  readonly depth: number;
  /** ran: ran at least once; skipped: reached, but `when` was always false; not_reached: no case got there. */
  readonly state: 'ran' | 'skipped' | 'not_reached';
  /** For steps with on_error: continue: whether a case took that branch. */
  readonly continue_taken?: boolean;
  readonly runs: number;
}

/** Coverage of one recipe file over every case that ran it (directly or through `call`). */
export interface RecipeCoverage {
  readonly recipe: string;
  readonly steps: CoverageStep[];
  readonly ran: number;
  readonly total: number;
  /** Steps that ran, in percent of all steps. */
  readonly percent: number;
}

/** Every step of a plan and the plans it calls, by recipe file, in file order (each called plan once). */
export function planSteps(
  plan: Plan,
  display: (file: string) => string,
): Map<string, { step: Step; key: string; depth: number }[]> {
  const byFile = new Map<string, { step: Step; key: string; depth: number }[]>();
  const seen = new Set<Step>();
  const walk = (steps: readonly Step[], file: string, depth: number): void => {
    for (const step of steps) {
      if (seen.has(step)) continue;
      seen.add(step);
      const list = byFile.get(display(file)) ?? [];
      byFile.set(display(file), list);
      list.push({ step, key: `${file}#${step.loc.pointer}`, depth });
      if (step.kind === 'foreach') walk(step.steps, file, depth + 1);
      if (step.kind === 'paginate' && step.steps) walk(step.steps, file, depth + 1);
      if (step.kind === 'call') walk(step.plan.steps, step.plan.file, 0);
    }
  };
  walk(plan.steps, plan.file, 0);
  return byFile;
}

/** Adds up hits per recipe file for the given plans. */
export function computeCoverage(
  plans: readonly Plan[],
  hits: readonly Record<string, StepHits>[],
  display: (file: string) => string,
): RecipeCoverage[] {
  const total: Record<string, StepHits> = {};
  for (const h of hits)
    for (const [key, v] of Object.entries(h)) {
      const t = (total[key] ??= { ran: 0, skipped: 0, continued: 0 });
      t.ran += v.ran;
      t.skipped += v.skipped;
      t.continued += v.continued;
    }
  const byFile = new Map<string, Map<string, CoverageStep>>();
  for (const plan of plans)
    for (const [file, steps] of planSteps(plan, display)) {
      const list = byFile.get(file) ?? new Map<string, CoverageStep>();
      byFile.set(file, list);
      for (const { step, key, depth } of steps) {
        if (list.has(key)) continue;
        const h = total[key] ?? { ran: 0, skipped: 0, continued: 0 };
        list.set(key, {
          id: step.id ?? `${step.kind}@${step.loc.line}`,
          kind: step.kind,
          line: step.loc.line,
          depth,
          state: h.ran > 0 ? 'ran' : h.skipped > 0 ? 'skipped' : 'not_reached',
          ...(step.onError === 'continue' ? { continue_taken: h.continued > 0 } : {}),
          runs: h.ran,
        });
      }
    }
  return [...byFile.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([recipe, steps]) => {
      const list = [...steps.values()].sort((a, b) => a.line - b.line);
      const ran = list.filter((s) => s.state === 'ran').length;
      return {
        recipe,
        steps: list,
        ran,
        total: list.length,
        percent: list.length ? Math.round((ran / list.length) * 1000) / 10 : 100,
      };
    });
}
