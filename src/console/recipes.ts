import { realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type * as Compile from '../compile/index.js';
import type { RecipeGraph, RecipeSummary } from './api-types.js';
import { planGraph, valueText } from './plan-graph.js';

/** Most recipe files a list shows: a console pointed at a huge tree stays quick. */
const MAX_LISTED = 500;

/**
 * The recipe files the console may open: YAML files under its recipe folders, named by their path
 * relative to the working directory. Nothing outside those folders is ever read, whatever the ref says
 * (`..`, absolute paths and symbolic links out of a folder are refused).
 */
export class RecipeCatalog {
  private readonly cwd: string;
  private readonly roots: string[];
  private readonly graphs = new Map<string, { mtimeMs: number; graph: RecipeGraph }>();

  constructor(cwd: string, roots: readonly string[]) {
    // Real paths on both sides, so refs stay relative where the working directory is reached by a link.
    this.cwd = realOrSelf(cwd);
    this.roots = roots.map((r) => realOrSelf(path.resolve(this.cwd, r)));
  }

  /**
   * The folders recipes are read from: relative to the working directory when inside it, else `…/<name>`
   * (the console's answers carry no absolute path of this machine).
   */
  get folders(): readonly string[] {
    return this.roots.map((root) => {
      const rel = path.relative(this.cwd, root);
      if (rel === '') return '.';
      return rel.startsWith('..') || path.isAbsolute(rel) ? `…/${path.basename(root)}` : rel.split(path.sep).join('/');
    });
  }

  /** Every recipe file under the folders, sorted, with its name (or the number of its problems). */
  async list(): Promise<RecipeSummary[]> {
    const { collectRecipeFiles } = await compiler();
    const files = (await collectRecipeFiles(this.roots)).filter((f) => this.contains(f)).slice(0, MAX_LISTED);
    const out: RecipeSummary[] = [];
    for (const file of files) {
      const g = await this.graphOfFile(file);
      if (!g) continue;
      out.push({
        ref: g.ref,
        ...(g.name !== undefined ? { name: g.name } : {}),
        ...(g.description !== undefined ? { description: g.description } : {}),
        problems: g.problems.length,
      });
    }
    return out;
  }

  /** The ref of an absolute file when it lies inside a folder, else undefined. */
  refOf(file: string): string | undefined {
    const abs = realOrSelf(path.resolve(this.cwd, file));
    if (!this.contains(abs)) return undefined;
    return path.relative(this.cwd, abs).split(path.sep).join('/');
  }

  /** The absolute path of the recipe file a ref names inside the folders, or undefined (outside, not YAML, no file). */
  fileOf(ref: string): string | undefined {
    if (typeof ref !== 'string' || ref === '' || ref.length > 1000 || ref.includes('\0')) return undefined;
    if (!/\.ya?ml$/i.test(ref)) return undefined;
    const abs = realOrSelf(path.resolve(this.cwd, ref));
    return this.contains(abs) ? abs : undefined;
  }

  /** The graph of the recipe a ref names, or undefined when the ref names no recipe the console may open. */
  async graph(ref: string): Promise<RecipeGraph | undefined> {
    if (typeof ref !== 'string' || ref === '' || ref.length > 1000 || ref.includes('\0')) return undefined;
    if (!/\.ya?ml$/i.test(ref)) return undefined;
    const abs = realOrSelf(path.resolve(this.cwd, ref));
    if (!this.contains(abs)) return undefined;
    return this.graphOfFile(abs);
  }

  private contains(abs: string): boolean {
    return this.roots.some((root) => abs === root || abs.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
  }

  private async graphOfFile(abs: string): Promise<RecipeGraph | undefined> {
    let info;
    try {
      info = await stat(abs);
    } catch {
      return undefined;
    }
    if (!info.isFile()) return undefined;
    const cached = this.graphs.get(abs);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached.graph;
    const ref = this.refOf(abs);
    if (ref === undefined) return undefined;
    const source = await readFile(abs, 'utf8');
    const { plan, diagnostics } = await (await compiler()).loadRecipe(abs, { displayName: ref });
    const graph: RecipeGraph = {
      ref,
      ...(plan ? { name: plan.name } : { name: nameFromSource(source) }),
      ...(plan?.description !== undefined ? { description: plan.description } : {}),
      source,
      inputs: plan
        ? Object.entries(plan.inputs).map(([name, spec]) => ({
            name,
            type: spec.type,
            required: spec.required,
            ...(spec.default !== undefined ? { default: JSON.stringify(spec.default) } : {}),
          }))
        : [],
      outputs: plan ? Object.entries(plan.outputs).map(([name, v]) => ({ name, value: valueText(v) })) : [],
      steps: plan ? planGraph(plan, (f) => this.refOf(f)) : [],
      problems: diagnostics
        .filter((d) => d.severity === 'error')
        .map((d) => ({ code: d.code, message: d.message, line: d.line, column: d.column })),
    };
    this.graphs.set(abs, { mtimeMs: info.mtimeMs, graph });
    return graph;
  }
}

/**
 * compile/ (YAML, the schema, JSONata) loaded on the first recipe page rather than at start: it is most of
 * what the console would otherwise load before it can answer.
 */
function compiler(): Promise<typeof Compile> {
  return import('../compile/index.js');
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The `name:` of a recipe that does not compile, for the list (best effort; undefined when absent). */
function nameFromSource(source: string): string | undefined {
  const m = /^name:\s*["']?([A-Za-z0-9_.-]+)/m.exec(source);
  return m?.[1];
}
