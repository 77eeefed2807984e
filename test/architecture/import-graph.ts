/**
 * The import graph of src/, read with TypeScript's own pre-processor (ts.preProcessFile): every import and
 * export-from, type-only ones included, and dynamic import() calls. Relative specifiers are resolved the way
 * NodeNext resolves them here ("./x.js" is ./x.ts); package imports are left out.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** src/, absolute. */
export const SRC = resolve(import.meta.dirname, '../../src');

/** Every .ts and .tsx file under a folder, as paths relative to src/ with forward slashes ("service/app.ts"). */
export function sourceFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(toKey(path));
  }
  return out.sort();
}

function toKey(path: string): string {
  return relative(SRC, path).split('\\').join('/');
}

/** The src/ files a file imports (relative specifiers only, resolved to .ts files that exist). */
export function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const out = new Set<string>();
  for (const { fileName } of info.importedFiles) {
    // Packages are outside the graph; so are assets a bundler loads (the console's .css).
    if (!fileName.startsWith('.') || /\.(css|svg|png|html)$/.test(fileName)) continue;
    out.add(resolveImport(file, fileName, known));
  }
  return [...out].sort();
}

/** The src/ file a relative specifier in `file` names, resolved as NodeNext resolves it here. */
export function resolveImport(file: string, specifier: string, known: ReadonlySet<string>): string {
  const base = toKey(resolve(dirname(join(SRC, file)), specifier));
  const stem = base.replace(/\.js$/, '');
  const candidates = [`${stem}.ts`, `${stem}.tsx`, `${base}.ts`, `${base}/index.ts`];
  const hit = candidates.find((c) => known.has(c));
  if (!hit) throw new Error(`${file}: cannot resolve import "${specifier}"`);
  return hit;
}

/** The file graph of src/: file → files it imports. */
export function fileGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const known = new Set(files);
  return new Map(files.map((f) => [f, importsOf(f, known)]));
}

/**
 * The folder a file belongs to as one node: each src/<stage>/, each src/service/<part>/; files directly in
 * src/service/ (the composition root) are "service", files directly in src/ are "." (the public API).
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return '.';
  if (parts[0] === 'service') return parts.length === 2 ? 'service' : `service/${parts[1]}`;
  return parts[0] as string;
}

/** The folder graph: folder → folders it imports (itself excluded). */
export function folderGraph(files: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [file, deps] of files) {
    const from = folderOf(file);
    const set = out.get(from) ?? new Set<string>();
    out.set(from, set);
    for (const dep of deps) if (folderOf(dep) !== from) set.add(folderOf(dep));
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}

/** The graph without some edges ("a -> b"). */
export function withoutEdges(
  graph: ReadonlyMap<string, readonly string[]>,
  edges: readonly string[],
): Map<string, string[]> {
  const drop = new Set(edges);
  return new Map([...graph].map(([k, v]) => [k, v.filter((d) => !drop.has(`${k} -> ${d}`))]));
}

/** Strongly connected components with more than one node, or a node that imports itself (Tarjan). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}
