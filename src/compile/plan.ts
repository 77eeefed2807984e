/**
 * The frozen Plan: what compile/ hands to run/. A closed, kind-tagged union of step kinds, in this one
 * file; the interpreter's switch over `kind` checks exhaustiveness with `never`.
 * Plain data, except for compiled expressions, which are opaque handles made and evaluated by expr/.
 */

/** A position in a recipe file (1-based line and column) and the JSON pointer of the node. */
export interface SourceLoc {
  file: string;
  line: number;
  column: number;
  pointer: string;
}

/** A JSONata expression compiled once by expr/; run/ evaluates it through expr/'s evalValue. */
export interface CompiledExpr {
  /** The expression text between `${` and `}`. */
  readonly source: string;
  readonly loc: SourceLoc;
  /** Variable names (without $) the expression reads, for the static reference checks. */
  readonly variables: readonly string[];
  evaluate(bindings: Readonly<Record<string, unknown>>): Promise<unknown>;
}

/**
 * A value as written in YAML after `${ }` analysis:
 * - literal: no expression anywhere inside (also `$${` escapes, already unescaped);
 * - expr: the scalar is exactly one `${ ... }`: evaluates to the expression's typed value;
 * - template: text around one or more `${ ... }`: parts are stringified and joined;
 * - object / array: a container with expressions somewhere inside, evaluated member by member.
 */
export type Value =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'expr'; readonly expr: CompiledExpr }
  | { readonly kind: 'template'; readonly parts: readonly (string | CompiledExpr)[] }
  | { readonly kind: 'object'; readonly entries: Readonly<Record<string, Value>> }
  | { readonly kind: 'array'; readonly items: readonly Value[] };

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

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
  readonly jitter: boolean;
}

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
}

export interface DownloadStep extends StepCommon {
  readonly kind: 'download';
  readonly entity: string;
  readonly action: string;
  readonly params: Value;
  /** Path template of the file to write, relative to the working directory. */
  readonly to: Value;
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
  readonly connector?: ConnectorRef;
  /** `http: {allow: [...]}`: the only hosts this recipe's http steps may reach (absent: any host). */
  readonly http?: { readonly allow: readonly string[] };
  readonly steps: readonly Step[];
  readonly outputs: Readonly<Record<string, Value>>;
}
