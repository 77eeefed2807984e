import type { CheckedRecipe } from '../run/index.js';
import type { Plan } from '../compile/plan.js';
import type { SourceLoc } from '../errors/index.js';
import type { Expected } from './expected.js';

/** Where a file's cases get their data: a fixture file, or a seed of the embedded service. */
export type DataSource =
  | { readonly kind: 'fixtures'; readonly path: string }
  | { readonly kind: 'seed'; readonly seed: 'demo' | 'none'; readonly size?: number };

/** One given answer of a mock: an HTTP status, headers and a JSON body. */
export interface MockAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/**
 * A case's `mock:` entry: the requests it answers, and its answers in turn (the last one repeats). `execute`:
 * connector calls by entity, action and params; `http`: requests to URLs outside the connector API (http steps).
 */
export type MockRule = ExecuteMockRule | HttpMockRule;

export interface ExecuteMockRule {
  readonly kind: 'execute';
  readonly entity: string;
  readonly action?: string;
  readonly params?: Expected;
  readonly answers: readonly MockAnswer[];
  readonly at: SourceLoc;
}

export interface HttpMockRule {
  readonly kind: 'http';
  /** Upper case; any method when absent. */
  readonly method?: string;
  /** The URL pattern as written (`*` matches any run of characters), and the test made of it. */
  readonly url: string;
  readonly urlTest: RegExp;
  /** Matched partially against the request's headers (lower-case names) and its body (JSON parsed). */
  readonly headers?: Expected;
  readonly body?: Expected;
  readonly answers: readonly HttpMockAnswer[];
  readonly at: SourceLoc;
}

/** One given answer of an http mock: the body as sent (a map or list as JSON, text as it is). */
export interface HttpMockAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Whether requests to URLs outside the connector API that no mock answers may leave the machine. */
export type NetworkPolicy = 'off' | 'allow';

/** Bounds on the number of requests a run sent. */
export interface RequestBounds {
  readonly max?: number;
  readonly min?: number;
  readonly count?: number;
  readonly at: SourceLoc;
}

/** What a case expects of its run. */
export interface CaseExpectations {
  readonly status: 'succeeded' | 'failed';
  readonly statusAt: SourceLoc;
  readonly error?: Expected;
  readonly outputs?: Expected;
  readonly writes?: { readonly items: readonly Expected[]; readonly order: 'sent' | 'any'; readonly at: SourceLoc };
  readonly requests?: RequestBounds;
}

/** One case of a test file, checked and compiled. */
export interface TestCase {
  readonly index: number;
  readonly name: string;
  readonly at: SourceLoc;
  /** Input values as given (checked against the recipe; the run resolves defaults). */
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly secrets: Readonly<Record<string, string>>;
  /** ISO date-time of the case's clock, or undefined for the wall clock. */
  readonly now?: string;
  readonly after?: string;
  readonly mocks: readonly MockRule[];
  /** The case's `network:`, else the file's (default off; --allow-network lets every case out). */
  readonly network: NetworkPolicy;
  /** Absolute path of the cassette, and how to show it. */
  readonly cassette?: { readonly path: string; readonly display: string; readonly at: SourceLoc };
  readonly snapshot: boolean;
  /** The reason, when the case is skipped. */
  readonly skip?: string;
  readonly timeoutMs: number;
  readonly expect: CaseExpectations;
  /** The keys of the case's `expect` map as written; undefined when it has none (--update adds one). */
  readonly expectKeys?: readonly string[];
}

/** A loaded, valid test file. */
export interface TestFile {
  /** Absolute path. */
  readonly path: string;
  /** The path as shown in reports (as found, relative to the working directory). */
  readonly display: string;
  readonly text: string;
  readonly recipe: Plan;
  /** The recipe as checked for running (startRun takes only a checked recipe). */
  readonly checked: CheckedRecipe;
  readonly data: DataSource;
  /** Where the data source is named (`fixtures:` or `seed:`), for problems found when it is loaded. */
  readonly dataAt: SourceLoc;
  readonly cases: readonly TestCase[];
}
