import { existsSync } from 'node:fs';
import path from 'node:path';
import { compileValue, escapePointer } from '../expr/index.js';
import { dedupeDiagnostics, type Diagnostic, type SourceLoc } from '../errors/index.js';
import { validateRecipeDocument } from '../schema/index.js';
import { loadSource, makeDiagnostic, sortDiagnostics, type Locator } from '../source/index.js';
import type { ConnectorCatalog } from '../catalog/index.js';
import { StepBuilder, type BuildContext, type ResolvedCall } from './build-steps.js';
import { checkGrants } from './check-grants.js';
import {
  describeSource,
  isInside,
  isProblem,
  locatePackage,
  openPackageContext,
  parseCallSource,
  type PackageContext,
} from '../packages/index.js';
import { RecipeError } from '../errors/index.js';
import { checkCallInputs } from './check-calls.js';
import { checkConnectorCalls } from './check-connectors.js';
import { checkNames } from './check-names.js';
import { checkScopes } from './check-scope.js';
import { checkDistributedSecrets } from './check-distributed-secrets.js';
import { deepFreeze } from './freeze.js';
import { findHints } from './hints.js';
import { tolerate } from './tolerate.js';
import { retryPolicyFrom } from '../client/retry-policy.js';
import { matchesType } from './inputs.js';
import type { InputSpec, InputType, Plan } from './plan.js';

export interface LoadOptions {
  /** The name diagnostics and plan locations use for the file (default: `file` as given). */
  readonly displayName?: string;
  /** Absolute paths of the recipes whose `call` led here (cycle detection). */
  readonly callStack?: readonly string[];
  /**
   * Valid plans of called recipes by absolute path, shared across the loads of one batch (e.g. a validate
   * run), so a library recipe called by many files is compiled once. Only valid plans are kept: a valid plan
   * has no call path back to itself, so it is valid whatever the caller.
   */
  readonly calledPlans?: Map<string, Plan>;
  /**
   * The connector catalog to check execute, paginate and download steps against (entity, action, params).
   * Without one, connector calls are not checked (the service checks them when they run).
   */
  readonly catalog?: ConnectorCatalog;
  /**
   * recipe.lock, the vendor folder and the store, opened once for the whole call graph (found from the first
   * recipe's folder up when a package is first called); null when there is no lock.
   */
  readonly packages?: { context?: PackageContext | null };
  /** Set when this file is inside a package: relative calls must stay inside `root`. */
  readonly inPackage?: {
    readonly root: string;
    readonly key: string;
    readonly resolved: string;
    readonly show: (file: string) => string;
  };
  /** False to skip comparing package footprints with their grants (tests that check the run-time guard). */
  readonly checkGrants?: boolean;
}

/** The plan when the recipe is valid, and every problem found in it otherwise. */
export interface LoadResult {
  readonly plan?: Plan;
  /** Errors: the plan is given only when there is none. */
  readonly diagnostics: Diagnostic[];
  /** Warnings (W codes): they do not stop the recipe from loading. */
  readonly warnings: Diagnostic[];
}

type Raw = Record<string, unknown>;

/** How long one evaluation of an expression may run when the recipe does not say (expression_timeout_ms). */
export const DEFAULT_EXPRESSION_TIMEOUT_MS = 60_000;

/**
 * Loads a recipe file: YAML with positions, the schema, expressions, references and called recipes.
 * Collects every problem in the file; gives a deep-frozen Plan only when there is none.
 */
export async function loadRecipe(file: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const absolute = path.resolve(file);
  const display = opts.displayName ?? file;
  const source = await loadSource(absolute, display);
  const diagnostics = [...source.diagnostics];
  // After a YAML problem that still leaves a value (a duplicate key, a tag...), the later checks go on.
  if (source.value === undefined) return { diagnostics: sortDiagnostics(diagnostics), warnings: [] };
  const doc = source.value;
  const schemaProblems = validateRecipeDocument(doc, source.locator, display);
  // With a wrong structure, the rest is still checked on what can be read of it (and expression syntax
  // everywhere), so that one run reports every problem of the file.
  if (schemaProblems.length > 0)
    diagnostics.push(...schemaProblems, ...expressionProblems(doc, source.locator, display));
  const raw = schemaProblems.length > 0 ? tolerate(doc) : (doc as Raw);
  const calls = await resolveCalls(raw, absolute, display, source.locator, opts, diagnostics);
  const ctx: BuildContext = {
    file: display,
    locator: source.locator,
    calls,
    diagnostics,
    ...(isRaw(raw.retry) ? { retry: retryPolicyFrom(raw.retry) } : {}),
  };
  const builder = new StepBuilder(ctx);
  const inputs = buildInputs(raw.inputs as Raw | undefined, builder, source.locator, display, diagnostics);
  const steps = builder.steps(raw.steps, '/steps');
  const connector = builder.connector(raw.connector, '/connector');
  const plan: Plan = {
    file: absolute,
    name: String(raw.name),
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    inputs,
    secrets: Array.isArray(raw.secrets) ? (raw.secrets as string[]) : [],
    secretLocs: secretLocations(raw.secrets, display, source.locator),
    ...(connector ? { connector } : {}),
    ...httpSettings(raw.http),
    steps,
    outputs: builder.valueMap(raw.outputs, '/outputs'),
    expressionTimeoutMs:
      typeof raw.expression_timeout_ms === 'number' ? raw.expression_timeout_ms : DEFAULT_EXPRESSION_TIMEOUT_MS,
  };
  checkNames(plan.steps, display, source.locator, diagnostics);
  checkScopes(plan, diagnostics);
  checkDistributedSecrets(plan, diagnostics);
  const written = new Map([...findCalls(raw.steps, '/steps')].map((c) => [c.pointer, c.target]));
  checkCallInputs(plan.steps, written, display, source.locator, diagnostics);
  if (opts.checkGrants !== false) checkGrants(plan.steps, display, source.locator, diagnostics);
  if (opts.catalog) diagnostics.push(...checkConnectorCalls(plan, opts.catalog, display, source.locator));
  diagnostics.push(...findHints(raw, plan, display, source.locator));
  const all = sortDiagnostics(dedupeDiagnostics(diagnostics));
  const errors = all.filter((d) => d.severity !== 'warning');
  const warnings = all.filter((d) => d.severity === 'warning');
  if (errors.length > 0) return { diagnostics: errors, warnings };
  return { plan: deepFreeze(plan), diagnostics: [], warnings };
}

function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function buildInputs(
  raw: Raw | undefined,
  builder: StepBuilder,
  locator: Locator,
  file: string,
  out: Diagnostic[],
): Record<string, InputSpec> {
  const inputs: Record<string, InputSpec> = {};
  for (const [name, specRaw] of Object.entries(raw ?? {})) {
    const spec = (specRaw ?? {}) as Raw;
    const pointer = `/inputs/${escapePointer(name)}`;
    const type = (spec.type ?? 'string') as InputType;
    const input: { -readonly [K in keyof InputSpec]: InputSpec[K] } = {
      type,
      required: spec.required === true,
      loc: { file, ...locator.locateKey(pointer), pointer },
    };
    if (spec.default !== undefined) {
      input.default = spec.default;
      if (!matchesType(spec.default, type)) {
        out.push(makeDiagnostic('R015', { name, reason: `is not of type ${type}` }, builder.loc(`${pointer}/default`)));
      } else if (
        Array.isArray(spec.enum) &&
        !spec.enum.some((v) => JSON.stringify(v) === JSON.stringify(spec.default))
      ) {
        out.push(
          makeDiagnostic('R015', { name, reason: 'is not one of its enum values' }, builder.loc(`${pointer}/default`)),
        );
      }
    }
    if (Array.isArray(spec.enum)) input.enum = spec.enum;
    if (typeof spec.description === 'string') input.description = spec.description;
    inputs[name] = input;
  }
  return inputs;
}

/** Every `call` step under a steps list, with its pointer, in document order. */
function* findCalls(steps: unknown, pointer: string): Generator<{ pointer: string; target: string; raw: unknown }> {
  if (!Array.isArray(steps)) return;
  for (const [i, step] of steps.entries()) {
    const s = step as Raw;
    const at = `${pointer}/${i}`;
    if (typeof s.call === 'string') yield { pointer: at, target: s.call, raw: s.call };
    else if (s.call !== null && typeof s.call === 'object')
      yield { pointer: at, target: JSON.stringify(s.call), raw: s.call };
    if (s.steps !== undefined) yield* findCalls(s.steps, `${at}/steps`);
  }
}

/** Compiles every called recipe (recursively); missing targets, cycles and invalid targets become diagnostics. */
async function resolveCalls(
  raw: Raw,
  absolute: string,
  display: string,
  locator: Locator,
  opts: LoadOptions,
  out: Diagnostic[],
): Promise<Map<string, ResolvedCall>> {
  const resolved = new Map<string, ResolvedCall>();
  const chain = [...(opts.callStack ?? []), absolute];
  const packages = opts.packages ?? {};
  for (const call of findCalls(raw.steps, '/steps')) {
    const loc = { file: display, ...locator.locate(`${call.pointer}/call`), pointer: `${call.pointer}/call` };
    const source = parseCallSource(call.raw);
    if (isProblem(source)) {
      out.push(makeDiagnostic('P001', { problem: source.problem }, loc));
      continue;
    }
    let target: string;
    let inPackage = opts.inPackage;
    let pkg: ResolvedCall['package'];
    if (source.kind === 'relative') {
      target = path.resolve(path.dirname(absolute), source.path);
      if (inPackage && !isInside(inPackage.root, target)) {
        out.push(makeDiagnostic('P007', { path: source.path, key: inPackage.key }, loc));
        continue;
      }
    } else {
      try {
        if (packages.context === undefined)
          packages.context = openPackageContext(path.dirname(chain[0] ?? absolute)) ?? null;
        if (packages.context === null) {
          out.push(makeDiagnostic('P002', { source: call.target, dir: path.dirname(chain[0] ?? absolute) }, loc));
          continue;
        }
        const found = locatePackage(packages.context, source);
        target = found.file;
        const resolvedTo = found.entry.commit ?? found.entry.version ?? '';
        pkg = { key: found.key, resolved: resolvedTo };
        inPackage = {
          root: found.root,
          key: found.key,
          resolved: resolvedTo,
          show: (file) => describeSource(source, path.relative(found.root, file).split(path.sep).join('/')),
        };
      } catch (err) {
        if (!(err instanceof RecipeError)) throw err;
        out.push(makeDiagnostic(err.code, err.params, loc));
        continue;
      }
    }
    // Name the files of a cycle relative to the recipe being validated (the first of the chain).
    const root = chain[0] ?? absolute;
    const name = (p: string) => path.relative(path.dirname(root), p) || path.basename(p);
    if (chain.includes(target)) {
      const cycle = [...chain.slice(chain.indexOf(target)), target].map(name).join(' → ');
      out.push(makeDiagnostic('R010', { cycle }, loc));
      continue;
    }
    const cached = opts.calledPlans?.get(target);
    if (cached) {
      resolved.set(call.pointer, { path: target, plan: cached, ...(pkg ? { package: pkg } : {}) });
      continue;
    }
    if (!existsSync(target)) {
      out.push(makeDiagnostic('R009', { path: call.target }, loc));
      continue;
    }
    const result = await loadRecipe(target, {
      displayName: inPackage ? inPackage.show(target) : displayNameOf(target),
      callStack: chain,
      packages,
      ...(inPackage ? { inPackage } : {}),
      ...(opts.checkGrants === false ? { checkGrants: false } : {}),
      ...(opts.calledPlans ? { calledPlans: opts.calledPlans } : {}),
      ...(opts.catalog ? { catalog: opts.catalog } : {}),
    });
    if (!result.plan) {
      const cycle = result.diagnostics.find((d) => d.code === 'R010');
      if (cycle) out.push({ ...cycle, file: loc.file, line: loc.line, column: loc.column, pointer: loc.pointer });
      else
        out.push(
          makeDiagnostic('R011', { path: call.target, problems: plural(result.diagnostics.length, 'problem') }, loc),
        );
      continue;
    }
    opts.calledPlans?.set(target, result.plan);
    resolved.set(call.pointer, { path: target, plan: result.plan, ...(pkg ? { package: pkg } : {}) });
  }
  return resolved;
}

function displayNameOf(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}

/** Expression syntax problems anywhere in a document whose structure is invalid (names and ids excluded). */
function expressionProblems(doc: unknown, locator: Locator, file: string): Diagnostic[] {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return [];
  const out: Diagnostic[] = [];
  for (const key of ['steps', 'outputs', 'connector']) {
    const member = (doc as Raw)[key];
    if (member === undefined) continue;
    const pointer = `/${key}`;
    out.push(...compileValue(member, { file, pointer, locate: (p, o) => locator.locate(p, o) }).diagnostics);
  }
  return out;
}

/** The recipe's `http: {allow}` settings, when it has them. */
function httpSettings(raw: unknown): Pick<Plan, 'http'> {
  const allow = (raw as Raw | undefined)?.allow;
  return Array.isArray(allow) ? { http: { allow: allow.filter((h): h is string => typeof h === 'string') } } : {};
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Each declared secret's `secrets:` entry, as a place in the file (the first entry of a repeated name). */
function secretLocations(secrets: unknown, file: string, locator: Locator): Record<string, SourceLoc> {
  const out: Record<string, SourceLoc> = Object.create(null) as Record<string, SourceLoc>;
  if (!Array.isArray(secrets)) return out;
  secrets.forEach((name, i) => {
    if (typeof name === 'string' && !Object.hasOwn(out, name))
      out[name] = { file, ...locator.locate(`/secrets/${i}`), pointer: `/secrets/${i}` };
  });
  return out;
}
