import type { WorkUnit } from './executor.js';
import type { Templates } from './templates.js';
import type { TestFile } from './test-file.js';

/**
 * Splits a file's cases into work units that can run anywhere in parallel: each case alone, except cases
 * linked by `after`, which run in order in one unit. Cases filtered out are left out, unless a kept case runs
 * after them. Builds (once) the template database of every case that starts from fresh embedded data.
 */
export async function planUnits(
  file: TestFile,
  templates: Templates,
  options: { filter?: string; record?: boolean },
): Promise<WorkUnit[]> {
  const byName = new Map(file.cases.map((c) => [c.name, c]));
  const keep = new Set<number>();
  for (const c of file.cases) {
    if (options.filter !== undefined && !c.name.includes(options.filter)) continue;
    for (
      let cur: typeof c | undefined = c;
      cur && !keep.has(cur.index);
      cur = cur.after ? byName.get(cur.after) : undefined
    )
      keep.add(cur.index);
  }
  // Union-find over `after` links: a unit per connected group.
  const root = new Map<number, number>();
  const find = (i: number): number => {
    const r = root.get(i) ?? i;
    if (r === i) return i;
    const top = find(r);
    root.set(i, top);
    return top;
  };
  for (const c of file.cases) {
    const before = c.after !== undefined ? byName.get(c.after) : undefined;
    if (before && keep.has(c.index)) root.set(find(c.index), find(before.index));
  }
  const groups = new Map<number, number[]>();
  for (const c of file.cases)
    if (keep.has(c.index)) groups.set(find(c.index), [...(groups.get(find(c.index)) ?? []), c.index]);
  const units: WorkUnit[] = [];
  for (const cases of groups.values()) {
    const t: Record<number, string> = {};
    for (const i of cases) {
      const c = file.cases[i];
      if (!c || c.after !== undefined || c.skip !== undefined || c.cassette) continue;
      t[i] = await templates.get(file.data, c.now);
    }
    units.push({ file: file.path, cases, templates: t });
  }
  return units;
}
