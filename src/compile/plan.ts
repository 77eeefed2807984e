/**
 * The frozen Plan: what compile/ hands to run/. A closed, kind-tagged union of step kinds, in this one
 * file; the interpreter's switch over `kind` checks exhaustiveness with `never`.
 * Plain data, except for compiled expressions, which are opaque handles made and evaluated by expr/.
 */
import type { RetryPolicy } from '../client/retry-policy.js';
import type { Grant } from '../packages/grant.js';
import type { SourceLoc, Value } from '../expr/types.js';

/** Where a recipe position is, a compiled expression and a value with expressions: made by expr/. */
export type { SourceLoc, CompiledExpr, Value, EvalLimits } from '../expr/types.js';

export type InputType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface InputSpec {
  readonly type: InputType;
  readonly required: boolean;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly description?: string;
  readonly loc: SourceLoc;
}

/** Which connector a step talks to: an id, or a workspace + definition (name or id) resolved once per run. */
export type ConnectorRef =
  | { readonly kind: 'id'; readonly id: Value; readonly loc: SourceLoc }
  | { readonly kind: 'lookup'; readonly workspace?: Value; readonly definition: Value; readonly loc: SourceLoc };

/** A step's `retry:`, completed from the defaults: the client's one retry policy type. */
export type { RetryPolicy } from '../client/retry-policy.js';

/** Fields every step may carry besides its kind key. */
export interface StepCommon {
  readonly id?: string;
  readonly loc: SourceLoc;
  readonly when?: Value;
  readonly retry?: RetryPolicy;
  readonly timeoutMs?: number;
  readonly onError: 'fail' | 'continue';
  readonly connector?: ConnectorRef;
  /** name → expression, evaluated after the step with $result (its output) and $response (the envelope). */
  readonly assign?: Readonly<Record<string, Value>>;
}

export interface ExecuteStep extends StepCommon {
  readonly kind: 'execute';
  readonly entity: string;
  readonly action: string;
  readonly params: Value;
  /** For context_store_search: poll inspect until the entity is searchable (bounded by timeoutMs). */
  readonly waitForContextStore: boolean;
  /** How a resume finds the effect of this write when it is in doubt (sent, no answer recorded). */
  readonly inDoubt?: InDoubtLookup;
}

/**
 * `in_doubt:` of a writing execute step: a read that finds what the write did. Its params see the step's
 * scope plus $request ({entity, action, params} as sent); `result` (over $result, the read's result) gives
 * the write's result, or nothing when the write did not happen (default: a list's first item, else the value).
 */
export interface InDoubtLookup {
  readonly entity: string;
  readonly action: string;
  readonly params: Value;
  readonly result?: Value;
  readonly loc: SourceLoc;
}

export interface PaginateStep extends StepCommon {
  readonly kind: 'paginate';
  readonly entity: string;
  readonly action: string;
  readonly params: Value;
  readonly maxPages: number;
  readonly maxItems?: number;
  /** Over $response: the params to merge into the next request, or null to stop. */
  readonly next?: Value;
  /** Streaming mode: each item is bound to $<as> and run through `steps`; nothing is accumulated. */
  readonly as?: string;
  readonly steps?: readonly Step[];
  readonly waitForContextStore: boolean;
}

export interface ForeachStep extends StepCommon {
  readonly kind: 'foreach';
  readonly items: Value;
  readonly as: string;
  readonly indexAs?: string;
  readonly concurrency: number;
  readonly steps: readonly Step[];
  /** Per iteration; the step's output is the array of them, in input order. */
  readonly collect?: Value;
  /** On a fleet run, the items go out in chunks of `chunk` to any worker (run/distribute.ts); else ignored. */
  readonly distribute?: { readonly chunk: number };
}

export interface TransformStep extends StepCommon {
  readonly kind: 'transform';
  readonly value: Value;
}

export interface SetStep extends StepCommon {
  readonly kind: 'set';
  readonly values: Readonly<Record<string, Value>>;
}

export interface LogStep extends StepCommon {
  readonly kind: 'log';
  readonly message: Value;
}

export interface AssertStep extends StepCommon {
  readonly kind: 'assert';
  readonly condition: Value;
  readonly message?: Value;
}

export interface FailStep extends StepCommon {
  readonly kind: 'fail';
  readonly message: Value;
}

export interface CallStep extends StepCommon {
  readonly kind: 'call';
  /** Absolute path of the called recipe. */
  readonly path: string;
  /** The called recipe, compiled (calls form no cycle: compile/ refuses them). */
  readonly plan: Plan;
  readonly with: Readonly<Record<string, Value>>;
  /** A call to a shared package (git or npm source): its recipe.lock key and what it resolved to. */
  readonly package?: { readonly key: string; readonly resolved: string };
  /** `allow:`: what the called recipe may do (a package call without it may only read). */
  readonly allow?: Grant;
}

export interface DownloadStep extends StepCommon {
  readonly kind: 'download';
  readonly entity: string;
  readonly action: string;
  readonly params: Value;
  /** Path template of the file to write, relative to the working directory. */
  readonly to: Value;
  /** `to` may leave the working directory (an absolute path, `..`, a symbolic link out). */
  readonly allowOutside: boolean;
}

/** Methods an http step may use; GET and HEAD are reads, the others writes (--dry-run does not send them). */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request outside the connector API (a webhook, an internal service), with the client's retry policy. */
export interface HttpStep extends StepCommon {
  readonly kind: 'http';
  readonly method: HttpMethod;
  /** An absolute http(s) URL. */
  readonly url: Value;
  /** name → value, appended to the URL's query string. */
  readonly query?: Value;
  readonly headers?: Value;
  /** A body sent as JSON (content-type application/json); exclusive with `body`. */
  readonly json?: Value;
  /** A text body (content-type text/plain unless a header says otherwise); exclusive with `json`. */
  readonly body?: Value;
  /** Statuses that count as success: numbers, or classes such as "2xx" (default ["2xx"]). */
  readonly successStatus: readonly (number | string)[];
}

export type Step =
  | ExecuteStep
  | PaginateStep
  | ForeachStep
  | TransformStep
  | SetStep
  | LogStep
  | AssertStep
  | FailStep
  | CallStep
  | DownloadStep
  | HttpStep;

export type StepKind = Step['kind'];

export interface Plan {
  /** Absolute path of the recipe file. */
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  readonly inputs: Readonly<Record<string, InputSpec>>;
  readonly secrets: readonly string[];
  /** Where each secret is declared (its `secrets:` entry): where X013 points when it is not set. */
  readonly secretLocs?: Readonly<Record<string, SourceLoc>>;
  readonly connector?: ConnectorRef;
  /** `http: {allow: [...]}`: the only hosts this recipe's http steps may reach (absent: any host). */
  readonly http?: { readonly allow: readonly string[] };
  readonly steps: readonly Step[];
  readonly outputs: Readonly<Record<string, Value>>;
  /** The longest one evaluation of an expression may run (`expression_timeout_ms`, default 60000). */
  readonly expressionTimeoutMs: number;
}
