// The per-step figure (issue 29): the engine's own cost per step with no I/O. A foreach over 10,000 items
// with three steps each that call nothing (set, transform, a set under `when`): the foreach step's duration
// divided by the 30,000 step visits, without and with the journal (each run alternating, median).
import { runRecipe } from '../lib/pair.mjs';
import { median } from '../lib/proc.mjs';

/** @typedef {import('../lib/section-context.mjs').SectionContext} SectionContext */

/**
 * @param {SectionContext} ctx
 * @param {number} runs
 */
export async function benchSteps({ figures, log, tmp }, runs, n = 10_000) {
  log(`per-step overhead: ${n} items × 3 no-op steps, without and with the journal, ${runs} runs each`);
  const visits = 3 * n;
  /** @type {{ off: number[], on: number[] }} */
  const perStepUs = { off: [], on: [] };
  const journal = `${tmp}/steps-journal.db`;
  for (let i = 0; i < runs; i++) {
    for (const mode of /** @type {const} */ (['off', 'on'])) {
      const extra = ['-i', `n=${n}`, ...(mode === 'off' ? ['--no-journal'] : ['--journal', journal])];
      const s = await runRecipe('bench/recipes/no-op-steps.yaml', {}, n, extra);
      perStepUs[mode].push((s.workMs * 1000) / visits);
      log(`  journal ${mode}: ${Math.round(s.workMs)} ms for ${visits} step visits`);
    }
  }
  figures.add({
    section: '10 per step',
    name: `${visits.toLocaleString('en')} no-op step visits, engine time per step (no journal)`,
    unit: 'µs',
    value: median(perStepUs.off),
    target: { of: 'value', op: '<=', limit: 20 },
  });
  figures.add({
    section: '10 per step',
    name: `${visits.toLocaleString('en')} no-op step visits, engine time per step (journaled)`,
    unit: 'µs',
    value: median(perStepUs.on),
    comparison: median(perStepUs.off),
    comparisonName: 'no journal',
  });
}
