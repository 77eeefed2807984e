import type { Footprint, PackageContext } from '../packages/index.js';
import { footprintOf, type Acc } from './footprint.js';
import { loadRecipe } from './load-recipe.js';

/**
 * The union of the footprints of the recipe files of a package folder (`recipe deps` records it in
 * recipe.lock), compiled against the lock being made.
 */
export async function packageFootprint(
  root: string,
  files: readonly string[],
  packages: { context: PackageContext },
): Promise<Footprint> {
  const acc: Acc = { reads: new Set(), writes: new Set(), secrets: new Set(), http: new Set() };
  for (const file of files) {
    const { plan } = await loadRecipe(file, {
      packages,
      checkGrants: false,
      inPackage: { root, key: '', resolved: '', show: (f) => f },
    });
    if (!plan) continue;
    const fp = footprintOf(plan);
    for (const k of ['reads', 'writes', 'secrets', 'http'] as const) for (const v of fp[k]) acc[k].add(v);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return { reads: sorted(acc.reads), writes: sorted(acc.writes), secrets: sorted(acc.secrets), http: sorted(acc.http) };
}
