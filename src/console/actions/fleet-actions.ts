import { relative, resolve } from 'node:path';
import type { Diagnostic } from '../../errors/index.js';
import type { FleetStore } from '../../fleet/fleet-store.js';
import type { FleetClient } from '../../fleet/queue.js';
import type { ScheduleView } from '../api-types.js';
import type { ConsoleActions } from './console-actions.js';

/**
 * Actions on a fleet (Redis or PostgreSQL): a cancel stored in the fleet's journal (`recipe cancel --redis`),
 * a redrive sent to the workers through the run's job (`recipe resume --redis`), schedules paused and resumed
 * (`recipe schedule pause|resume`), on either store. The fleet's modules load, and its connections open, on the
 * first action, and stay open for the console's life.
 *
 * A submit (POST /api/runs) is `recipe submit FILE --recipes DIR`: `recipesDir` is the workers' recipes folder as
 * this console sees it (its first --recipes folder), the one the job's recipe path is relative to; as for
 * `recipe submit`, the working directory when not given.
 */
export function fleetActions(
  store: FleetStore,
  queue: string,
  label: string,
  recipesDir: string = process.cwd(),
): ConsoleActions {
  let client: Promise<FleetClient> | undefined;
  const fleet = async (): Promise<FleetClient> => {
    client ??= import('../../fleet/queue.js').then((m) => m.openFleet(store, queue));
    try {
      return await client;
    } catch (err) {
      client = undefined;
      throw err;
    }
  };
  const schedules = () => import('../../fleet/schedules.js');
  return {
    label,
    cancelUnavailable: null,
    redriveUnavailable: null,
    schedulesUnavailable: null,
    submitUnavailable: null,
    async cancel(runId, reason) {
      return (await fleet()).journal.requestCancel(runId, reason, Date.now());
    },
    async redrive(runId, options) {
      const { requestRedrive } = await import('../../fleet/queue.js');
      await requestRedrive(await fleet(), runId, { ...options, assume_sent: [], assume_not_sent: [] });
    },
    async listSchedules(): Promise<ScheduleView[]> {
      return (await schedules()).listSchedules(await fleet());
    },
    async fleetStatus() {
      const { fleetStatus } = await import('../../fleet/status.js');
      return fleetStatus(await fleet());
    },
    async pauseSchedule(name) {
      await (await schedules()).pauseSchedule(await fleet(), name);
    },
    async resumeSchedule(name) {
      await (await schedules()).resumeSchedule(await fleet(), name);
    },
    async submit(file, given) {
      // The checks `recipe submit` makes before it enqueues (start-run.ts, the inputs against their declarations).
      const [{ checkRecipe, newRunId }, { resolveInputs }, { runJobData, submitRun }] = await Promise.all([
        import('../../run/index.js'),
        import('../../compile/index.js'),
        import('../../fleet/queue.js'),
      ]);
      const checked = await checkRecipe(file, { displayName: relative(resolve(recipesDir), file) });
      if (!checked.recipe) return { problems: checked.diagnostics.map(problem) };
      const plan = checked.recipe.plan;
      const inputs = resolveInputs(plan, { ...given });
      if (inputs.diagnostics.length > 0) return { problems: inputs.diagnostics.map(problem) };
      const runId = newRunId(Math.random);
      const data = await runJobData(plan, recipesDir, { inputs: inputs.values, runId });
      await submitRun(await fleet(), { ...data, run_id: runId, origin: { kind: 'submit' } });
      return { run_id: runId, recipe: data.recipe };
    },
    async close() {
      const c = client;
      client = undefined;
      await (await c?.catch(() => undefined))?.close();
    },
  };
}

/** A diagnostic as `recipe submit` prints its place: file:line:col, code, message. */
function problem(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.code} ${d.message}`;
}
