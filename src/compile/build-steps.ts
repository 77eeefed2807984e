import { retryPolicyFrom, type RetryPolicy } from '../client/retry-policy.js';
import { compileValue, escapePointer } from '../expr/index.js';
import type { Diagnostic } from '../errors/index.js';
import { KIND_KEYS } from '../schema/index.js';
import type { Locator } from '../source/index.js';
import { grantOf } from '../packages/grant.js';
import type { ConnectorRef, HttpMethod, InDoubtLookup, Plan, SourceLoc, Step, StepCommon, Value } from './plan.js';

type Raw = Record<string, unknown>;

/** The step kind keys, in the order the docs list them: the schema's (schema/step-kinds.ts). */
export const STEP_KINDS = KIND_KEYS;

/** Defaults the schema documents (the schema's `default` keywords say the same). */
export const DEFAULTS = {
  maxPages: 1000,
  foreachAs: 'item',
  concurrency: 1,
  downloadAction: 'download',
  httpMethod: 'GET',
  httpSuccess: ['2xx'],
  distributeChunk: 500,
} as const;

/** A called recipe as compile/ found it: its file, its plan, and the package it came from (if any). */
export interface ResolvedCall {
  readonly path: string;
  readonly plan: Plan;
  readonly package?: { readonly key: string; readonly resolved: string };
}

/** What the builder needs: where nodes are, and the compiled plans of called recipes by pointer of the call. */
export interface BuildContext {
  readonly file: string;
  readonly locator: Locator;
  readonly calls: ReadonlyMap<string, ResolvedCall>;
  readonly diagnostics: Diagnostic[];
  /** The recipe's top-level `retry:` (completed from the defaults): each step's `retry:` is completed from it. */
  readonly retry?: RetryPolicy;
}

/**
 * Turns a schema-valid document's steps into plan steps. The schema has already checked the shape, so this
 * only reads; every string goes through expr/'s compileValue, whose problems join the diagnostics.
 */
export class StepBuilder {
  constructor(private readonly ctx: BuildContext) {}

  loc(pointer: string): SourceLoc {
    return { file: this.ctx.file, ...this.ctx.locator.locate(pointer), pointer };
  }

  value(raw: unknown, pointer: string): Value {
    const locator = this.ctx.locator;
    const { value, diagnostics } = compileValue(raw, {
      file: this.ctx.file,
      pointer,
      locate: (p, offset) => locator.locate(p, offset),
    });
    this.ctx.diagnostics.push(...diagnostics);
    return value;
  }

  valueMap(raw: unknown, pointer: string): Record<string, Value> {
    const out: Record<string, Value> = {};
    for (const [key, member] of Object.entries((raw ?? {}) as Raw))
      out[key] = this.value(member, `${pointer}/${escapePointer(key)}`);
    return out;
  }

  connector(raw: unknown, pointer: string): ConnectorRef | undefined {
    if (raw === undefined || raw === null) return undefined;
    const r = raw as Raw;
    const loc = this.loc(pointer);
    if ('id' in r) return { kind: 'id', id: this.value(r.id, `${pointer}/id`), loc };
    const ref: { kind: 'lookup'; definition: Value; loc: SourceLoc; workspace?: Value } = {
      kind: 'lookup',
      definition: this.value(r.definition, `${pointer}/definition`),
      loc,
    };
    if (r.workspace !== undefined) ref.workspace = this.value(r.workspace, `${pointer}/workspace`);
    return ref;
  }

  steps(raw: unknown, pointer: string): Step[] {
    return ((raw ?? []) as unknown[]).map((step, i) => this.step(step as Raw, `${pointer}/${i}`));
  }

  step(raw: Raw, pointer: string): Step {
    const kind = STEP_KINDS.find((k) => k in raw) as (typeof STEP_KINDS)[number];
    const common = this.common(raw, pointer);
    const body = raw[kind];
    const at = `${pointer}/${kind}`;
    switch (kind) {
      case 'execute': {
        const b = body as Raw;
        return {
          ...common,
          kind,
          entity: String(b.entity),
          action: String(b.action),
          params: this.value(b.params ?? {}, `${at}/params`),
          waitForContextStore: b.wait_for_context_store === true,
          ...(raw.in_doubt !== undefined ? { inDoubt: this.inDoubt(raw.in_doubt as Raw, `${pointer}/in_doubt`) } : {}),
        };
      }
      case 'paginate': {
        const b = body as Raw;
        const step: Step = {
          ...common,
          kind,
          entity: String(b.entity),
          action: String(b.action),
          params: this.value(b.params ?? {}, `${at}/params`),
          maxPages: typeof b.max_pages === 'number' ? b.max_pages : DEFAULTS.maxPages,
          waitForContextStore: b.wait_for_context_store === true,
          ...(typeof b.max_items === 'number' ? { maxItems: b.max_items } : {}),
          ...(b.next !== undefined ? { next: this.value(b.next, `${at}/next`) } : {}),
          ...(typeof raw.as === 'string' ? { as: raw.as } : {}),
          ...(raw.steps !== undefined ? { steps: this.steps(raw.steps, `${pointer}/steps`) } : {}),
        };
        return step;
      }
      case 'foreach':
        return {
          ...common,
          kind,
          items: this.value(body, at),
          as: typeof raw.as === 'string' ? raw.as : DEFAULTS.foreachAs,
          concurrency: typeof raw.concurrency === 'number' ? raw.concurrency : DEFAULTS.concurrency,
          steps: this.steps(raw.steps, `${pointer}/steps`),
          ...(typeof raw.index_as === 'string' ? { indexAs: raw.index_as } : {}),
          ...(raw.collect !== undefined ? { collect: this.value(raw.collect, `${pointer}/collect`) } : {}),
          ...distributeOf(raw.distribute),
        };
      case 'transform':
        return { ...common, kind, value: this.value(body, at) };
      case 'set':
        return { ...common, kind, values: this.valueMap(body, at) };
      case 'log':
        return { ...common, kind, message: this.value(body, at) };
      case 'assert':
        return {
          ...common,
          kind,
          condition: this.value(body, at),
          ...(raw.message !== undefined ? { message: this.value(raw.message, `${pointer}/message`) } : {}),
        };
      case 'fail':
        return { ...common, kind, message: this.value(body, at) };
      case 'call': {
        // A call whose target failed has been reported; the stand-in lets the rest of the file be checked.
        const target = this.ctx.calls.get(pointer) ?? {
          path: typeof body === 'string' ? body : JSON.stringify(body),
          plan: UNRESOLVED_PLAN,
        };
        return {
          ...common,
          kind,
          path: target.path,
          plan: target.plan,
          with: this.valueMap(raw.with, `${pointer}/with`),
          ...(target.package ? { package: target.package } : {}),
          ...(raw.allow !== undefined ? { allow: grantOf(raw.allow) } : {}),
        };
      }
      case 'download': {
        const b = body as Raw;
        return {
          ...common,
          kind,
          entity: String(b.entity),
          action: typeof b.action === 'string' ? b.action : DEFAULTS.downloadAction,
          params: this.value(b.params ?? {}, `${at}/params`),
          to: this.value(b.to, `${at}/to`),
          allowOutside: b.allow_outside === true,
        };
      }
      case 'http': {
        const b = body as Raw;
        return {
          ...common,
          kind,
          method: (typeof b.method === 'string' ? b.method.toUpperCase() : DEFAULTS.httpMethod) as HttpMethod,
          url: this.value(b.url, `${at}/url`),
          successStatus: Array.isArray(b.success_status)
            ? (b.success_status as (number | string)[])
            : DEFAULTS.httpSuccess,
          ...(b.query !== undefined ? { query: this.value(b.query, `${at}/query`) } : {}),
          ...(b.headers !== undefined ? { headers: this.value(b.headers, `${at}/headers`) } : {}),
          ...(b.json !== undefined ? { json: this.value(b.json, `${at}/json`) } : {}),
          ...(b.body !== undefined ? { body: this.value(b.body, `${at}/body`) } : {}),
        };
      }
    }
  }

  private inDoubt(raw: Raw, pointer: string): InDoubtLookup {
    const lookup = raw.lookup as Raw;
    return {
      entity: String(lookup.entity),
      action: String(lookup.action),
      params: this.value(lookup.params ?? {}, `${pointer}/lookup/params`),
      ...(raw.result !== undefined ? { result: this.value(raw.result, `${pointer}/result`) } : {}),
      loc: this.loc(pointer),
    };
  }

  private common(raw: Raw, pointer: string): StepCommon {
    const common: {
      -readonly [K in keyof StepCommon]: StepCommon[K];
    } = { loc: this.loc(pointer), onError: raw.on_error === 'continue' ? 'continue' : 'fail' };
    if (typeof raw.id === 'string') common.id = raw.id;
    if (raw.when !== undefined) common.when = this.value(raw.when, `${pointer}/when`);
    if (raw.retry !== undefined) common.retry = retryPolicyFrom(raw.retry as Raw, this.ctx.retry);
    else if (this.ctx.retry) common.retry = this.ctx.retry;
    if (typeof raw.timeout_ms === 'number') common.timeoutMs = raw.timeout_ms;
    const connector = this.connector(raw.connector, `${pointer}/connector`);
    if (connector) common.connector = connector;
    if (raw.assign !== undefined) common.assign = this.valueMap(raw.assign, `${pointer}/assign`);
    return common;
  }
}

/** Stands in for a called recipe that could not be compiled (never part of a returned plan). */
export const UNRESOLVED_PLAN: Plan = Object.freeze({
  file: '',
  name: '',
  inputs: {},
  secrets: [],
  steps: [],
  outputs: {},
  expressionTimeoutMs: 60_000,
});

/** `distribute: true` or `{chunk}` (the schema checked the shape); false or absent: not distributed. */
function distributeOf(raw: unknown): { distribute?: { chunk: number } } {
  if (raw === true) return { distribute: { chunk: DEFAULTS.distributeChunk } };
  if (raw === null || typeof raw !== 'object') return {};
  const chunk = (raw as Raw).chunk;
  return { distribute: { chunk: typeof chunk === 'number' ? chunk : DEFAULTS.distributeChunk } };
}
