/**
 * What a called package may do (a call's `allow:`), and what it does (its footprint, computed from its
 * compiled recipes). Plain data: compile/ checks a footprint against a grant, the run checks each request.
 */

/** What a package's recipes do: "entity.action" reads and writes, secrets declared, http hosts. Sorted. */
export interface Footprint {
  readonly reads: readonly string[];
  readonly writes: readonly string[];
  readonly secrets: readonly string[];
  /** Hosts of its http steps ("*" when a URL is an expression and no http.allow bounds it). */
  readonly http: readonly string[];
}

export interface GrantedWrite {
  readonly entity: string;
  readonly actions: readonly string[];
}

/** A call's `allow:` (or the intersection of the grants down a chain of calls). */
export interface Grant {
  readonly writes: readonly GrantedWrite[];
  readonly http: readonly string[];
  /** The callee's secret name → the caller's secret name. */
  readonly secrets: Readonly<Record<string, string>>;
  readonly maxWrites?: number;
}

/** A package call without `allow:`: it may read, nothing else. */
export const READ_ONLY: Grant = { writes: [], http: [], secrets: {} };

export function grantsWrite(grant: Grant, entity: string, action: string): boolean {
  return grant.writes.some(
    (w) => (w.entity === entity || w.entity === '*') && (w.actions.includes(action) || w.actions.includes('*')),
  );
}

/** `inner` narrowed to what `outer` allows (`outer` undefined: full rights, the caller's own recipes). */
export function intersectGrants(outer: Grant | undefined, inner: Grant): Grant {
  if (!outer) return inner;
  const writes: GrantedWrite[] = [];
  for (const w of inner.writes) {
    const entities = w.entity === '*' ? [...new Set(outer.writes.map((o) => o.entity))] : [w.entity];
    for (const entity of entities) {
      const actions = w.actions.includes('*')
        ? outer.writes.filter((o) => o.entity === entity || o.entity === '*').flatMap((o) => o.actions)
        : w.actions.filter((a) => grantsWrite(outer, entity, a));
      if (actions.length > 0) writes.push({ entity, actions: [...new Set(actions)] });
    }
  }
  const http = inner.http.filter((h) => outer.http.includes(h) || outer.http.includes('*'));
  const max = [outer.maxWrites, inner.maxWrites].filter((n): n is number => n !== undefined);
  return { writes, http, secrets: inner.secrets, ...(max.length > 0 ? { maxWrites: Math.min(...max) } : {}) };
}

/** "tickets.update, notes.create" (or "nothing"), for messages. */
export function describeWrites(grant: Grant): string {
  const list = grant.writes.flatMap((w) => w.actions.map((a) => `${w.entity}.${a}`));
  return list.length > 0 ? list.join(', ') : 'no writes';
}

/** The writes, hosts and secrets of `footprint` that `grant` does not cover. */
export function exceeding(footprint: Footprint, grant: Grant): { writes: string[]; http: string[]; secrets: string[] } {
  return {
    writes: footprint.writes.filter((w) => {
      const dot = w.indexOf('.');
      return !grantsWrite(grant, w.slice(0, dot), w.slice(dot + 1));
    }),
    http: footprint.http.filter((h) => !grant.http.includes(h) && !grant.http.includes('*')),
    secrets: footprint.secrets.filter((s) => !Object.hasOwn(grant.secrets, s)),
  };
}

/** Reads a validated `allow:` value (the schema has checked its shape). */
export function grantOf(raw: unknown): Grant {
  const o = (raw ?? {}) as {
    writes?: GrantedWrite[];
    http?: string[];
    secrets?: Record<string, string>;
    max_writes?: number;
  };
  return {
    writes: (o.writes ?? []).map((w) => ({ entity: w.entity, actions: [...w.actions] })),
    http: [...(o.http ?? [])],
    secrets: { ...(o.secrets ?? {}) },
    ...(typeof o.max_writes === 'number' ? { maxWrites: o.max_writes } : {}),
  };
}
