import type { Plan, Step } from '../compile/plan.js';
import { formatFileLineCol, RecipeError } from '../errors/index.js';
import type { ExchangeRecord } from '../journal/index.js';
import type { SettleMethod } from './call-recorder.js';

/** What a resume was told about writes in doubt (--assume-sent / --assume-not-sent STEP_PATH, repeatable). */
export interface SettleFlags {
  readonly assumeSent: readonly string[];
  readonly assumeNotSent: readonly string[];
}

/** What the settle planner needs to know besides the writes. */
export interface SettleContext {
  readonly runId: string;
  readonly plan: Plan;
  /** Whether the connector service honours Idempotency-Key (recorded by the run, or asked now). */
  honoursIdempotencyKeys(): Promise<boolean>;
}

/**
 * Decides, before a resume sends anything, how each write in doubt will be settled: a flag the user gave
 * (--assume-sent / --assume-not-sent), else a re-send with the same Idempotency-Key when the service honours
 * keys (never for an http step: the key means nothing to another server), else the step's in_doubt lookup.
 * Any write left over stops the resume with J004, which lists them all with the flags that settle each;
 * a flag that matches no write in doubt is a usage error (J008).
 */
export async function planSettlement(
  writes: readonly ExchangeRecord[],
  flags: SettleFlags,
  ctx: SettleContext,
): Promise<Map<string, SettleMethod>> {
  for (const [flag, given] of [
    ['--assume-sent', flags.assumeSent],
    ['--assume-not-sent', flags.assumeNotSent],
  ] as const) {
    for (const path of given) {
      if (!writes.some((w) => matchesStepPath(path, w))) {
        const known = writes.map((w) => w.step_path).join(', ') || 'none';
        throw new RecipeError('J008', {
          flag: `${flag} ${path}`,
          reason: `no write in doubt there (writes in doubt: ${known})`,
        });
      }
    }
  }
  const plan = new Map<string, SettleMethod>();
  const unsettled: ExchangeRecord[] = [];
  let honours: boolean | undefined;
  for (const w of writes) {
    if (flags.assumeSent.some((p) => matchesStepPath(p, w))) plan.set(w.call_key, 'assume_sent');
    else if (flags.assumeNotSent.some((p) => matchesStepPath(p, w))) plan.set(w.call_key, 'assume_not_sent');
    else if (w.kind !== 'http' && (honours ??= await ctx.honoursIdempotencyKeys()))
      plan.set(w.call_key, 'idempotency_key');
    else if (hasLookup(ctx.plan, w)) plan.set(w.call_key, 'lookup');
    else unsettled.push(w);
  }
  if (unsettled.length > 0) {
    const first = unsettled[0] as ExchangeRecord;
    throw new RecipeError(
      'J004',
      { runId: ctx.runId, count: unsettled.length, writes: unsettled.map(describeWrite).join('\n') },
      { file: first.file, line: first.line, column: first.column, pointer: first.pointer },
    );
  }
  return plan;
}

/**
 * A STEP_PATH flag against a write: its step path (`notes[3].note`), its call key (`notes[3].note#0`), the
 * path with `[*]` for any index (`notes[*].note`), or the path without indexes (`notes.note`: every item).
 */
export function matchesStepPath(flag: string, w: { step_path: string; call_key: string }): boolean {
  if (flag === w.step_path || flag === w.call_key) return true;
  if (flag.includes('[*]')) {
    const pattern = flag.split('[*]').map(escapeRegExp).join('\\[\\d+\\]');
    return new RegExp(`^${pattern}$`).test(w.step_path);
  }
  return !flag.includes('[') && w.step_path.replace(/\[\d+\]/g, '') === flag;
}

/** One line per write in doubt: where, what was sent, and the two flags. */
function describeWrite(w: ExchangeRecord): string {
  const body = w.request.length > 300 ? `${w.request.slice(0, 297)}...` : w.request;
  const quoted = `'${w.step_path}'`;
  return (
    `  ${w.step_path} at ${formatFileLineCol(w)}: ${w.method} ${w.path} ${body}\n` +
    `    --assume-sent ${quoted} | --assume-not-sent ${quoted}`
  );
}

/** True when the write's step (found by file and pointer, in the recipe or a file it calls) has in_doubt. */
function hasLookup(plan: Plan, w: ExchangeRecord): boolean {
  const step = findStep(plan, w.file, w.pointer);
  return step?.kind === 'execute' && step.inDoubt !== undefined;
}

/** The step at `pointer` of `file`, in the plan or any plan it calls. */
export function findStep(plan: Plan, file: string, pointer: string): Step | undefined {
  const visit = (steps: readonly Step[]): Step | undefined => {
    for (const step of steps) {
      if (step.loc.file === file && step.loc.pointer === pointer) return step;
      const inner =
        step.kind === 'foreach' || (step.kind === 'paginate' && step.steps)
          ? visit(step.steps ?? [])
          : step.kind === 'call'
            ? visit(step.plan.steps)
            : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  return visit(plan.steps);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
