/**
 * The shapes the console's JSON API answers: shared by the server (src/console/) and the browser code
 * (src/console/web/), so both sides are checked against one definition. Plain data only: no imports.
 */

/** GET /api/info: what this console can show. */
export interface ConsoleInfo {
  readonly version: string;
  /** Where runs come from; `available: false` says why there are none to show. */
  readonly journal: { readonly available: boolean; readonly path?: string; readonly reason?: string };
  /** The connector service the service page reads (a URL, or "embedded"). */
  readonly service: { readonly label: string };
  /** Fleet runs (--redis); `available: false` says why not. */
  readonly fleet: { readonly available: boolean; readonly reason?: string };
  /** What the pages may do (cancel, redrive, pause/resume a schedule), and the proof every action sends. */
  readonly actions: ConsoleActionsInfo;
}

/** The console's actions as the pages offer them. */
export interface ConsoleActionsInfo {
  /** Sent back in the X-Recipe-CSRF header of every action (POST); readable only by the console's own pages. */
  readonly csrf_token: string;
  /** Why a run page offers no Cancel, or null when it does (a running run). */
  readonly cancel_unavailable: string | null;
  /** Why a run page offers no Redrive (a local journal: `recipe resume` there), or null. */
  readonly redrive_unavailable: string | null;
  /** Why there is no schedules page (no fleet, or a fleet on PostgreSQL), or null. */
  readonly schedules_unavailable: string | null;
  /** Why a recipe page offers no "Submit to the fleet" (no fleet), or null. */
  readonly submit_unavailable: string | null;
}

/** What POST /api/runs answers (202): the run the fleet will run, and its page. */
export interface SubmitAnswer {
  readonly run_id: string;
  /** The recipe's path under the fleet's recipes folder, as the job carries it. */
  readonly recipe: string;
  /** The run's page on this console. */
  readonly link: string;
}

/** A fleet schedule as GET /api/schedules lists it (the shape of `recipe schedule list --json`). */
export interface ScheduleView {
  readonly name: string;
  readonly recipe: string;
  /** A cron pattern, or null for --every. */
  readonly cron: string | null;
  readonly every_ms: number | null;
  readonly tz: string | null;
  /** The next tick (ISO), when known; null while paused. */
  readonly next: string | null;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly paused: boolean;
  readonly jitter_ms: number | null;
  readonly offset_ms: number | null;
}

/**
 * GET /api/fleet: one read of the fleet's state, the shape of `recipe fleet status --json`
 * (src/fleet/status.ts FleetStatus, which the server returns as it is: the compiler checks they agree).
 */
export interface FleetView {
  readonly queue: string;
  /** Epoch ms of the read (heartbeats and leases are relative to it). */
  readonly at: number;
  readonly workers: readonly FleetWorkerView[];
  readonly jobs: {
    readonly waiting: number;
    readonly active: number;
    readonly delayed: number;
    readonly failed: number;
    readonly completed: number;
    readonly waiting_children: number;
  };
  readonly schedules: readonly ScheduleView[];
  readonly leases: readonly {
    readonly run_id: string;
    readonly part: string | null;
    readonly holder: string | null;
    readonly expires_in_ms: number;
  }[];
  readonly chunks: readonly {
    readonly run_id: string;
    readonly step_path: string;
    readonly chunk: number;
    readonly state: string;
    readonly worker: string | null;
    readonly retries: number;
    readonly items_done: number;
    readonly items_total: number;
    readonly reason?: string;
  }[];
}

/** A live worker of the fleet (a heartbeat within the last 15 s) and the jobs it holds. */
export interface FleetWorkerView {
  /** host:pid, as in the worker's log and the leases' holder. */
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly version: string;
  readonly concurrency: number;
  readonly queue: string;
  readonly recipes_dir: string;
  readonly started_at: string;
  readonly heartbeat_at: string;
  readonly current: readonly {
    readonly job_id: string;
    readonly run_id: string;
    readonly kind: 'run' | 'chunk';
    readonly chunk?: string;
    readonly since: number;
  }[];
}

/** What POST /api/runs/:id/cancel answers: the stored request. */
export interface CancelAnswer {
  readonly run_id: string;
  readonly attempt: number;
  readonly reason: string | null;
  readonly requested_at: string;
}

/** What POST /api/runs/:id/redrive and /api/schedules/:name/pause|resume answer. */
export interface ActionAnswer {
  readonly ok: true;
  /** One line saying what happens next. */
  readonly message: string;
}

/** One recipe file the console may show. `ref` is its path relative to the console's working directory. */
export interface RecipeSummary {
  readonly ref: string;
  readonly name?: string;
  readonly description?: string;
  /** Number of problems when the file does not compile (the graph page lists them). */
  readonly problems: number;
}

/** A step of a plan as the recipe page draws it. */
export interface GraphNode {
  readonly kind: string;
  /** The step's id, or kind@line. */
  readonly label: string;
  readonly id?: string;
  readonly line: number;
  /** One line saying what the step does, e.g. `deals.list` or the expression text. */
  readonly summary: string;
  /** Further facts (max_pages, concurrency, retry, timeout, on_error, ...) as name → text. */
  readonly facts: Readonly<Record<string, string>>;
  /** The `when` condition, drawn on the edge into this node. */
  readonly when?: string;
  /** Nested steps of foreach and streaming paginate (a group). */
  readonly steps?: readonly GraphNode[];
  /**
   * A `call`: the called file and its steps. Inside the console's folders: `file` and `ref` are its ref and
   * its steps are drawn; elsewhere: `file` is its file name only, no ref, no steps.
   */
  readonly call?: {
    readonly file: string;
    readonly ref?: string;
    readonly name: string;
    readonly steps: readonly GraphNode[];
  };
}

/** GET /api/recipes/graph?ref=...: the compiled plan of a recipe, or its problems. */
export interface RecipeGraph {
  readonly ref: string;
  readonly name?: string;
  readonly description?: string;
  readonly source: string;
  readonly inputs: readonly {
    readonly name: string;
    readonly type: string;
    readonly required: boolean;
    readonly default?: string;
  }[];
  readonly outputs: readonly { readonly name: string; readonly value: string }[];
  readonly steps: readonly GraphNode[];
  readonly problems: readonly {
    readonly code: string;
    readonly message: string;
    readonly line: number;
    readonly column: number;
  }[];
}

/** The context store's state of one entity, as the service's inspect reports it. */
export interface EntityReadiness {
  readonly entity: string;
  readonly status: string;
  readonly ready_for_search: boolean;
  readonly entity_count: number | null;
  readonly updated_at: string | null;
}

export interface ConnectorView {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  /** The lowest status over its entities; null for a type without a context store. */
  readonly context_store_status: string | null;
  readonly entities: readonly EntityReadiness[];
  readonly warnings: readonly string[];
  /** Set when inspect failed for this connector. */
  readonly error?: string;
}

export interface WorkspaceView {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly connectors: readonly ConnectorView[];
}

/** GET /api/service: connectors per workspace with context store readiness. */
export interface ServiceView {
  readonly label: string;
  readonly workspaces: readonly WorkspaceView[];
  /** Set when the service could not be reached or refused the credentials. */
  readonly error?: string;
}

/** Every error the console's API answers. */
export interface ApiError {
  readonly message: string;
  readonly error_code: string;
}
