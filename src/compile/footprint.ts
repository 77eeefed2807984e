import { writes } from '../client/actions.js';
import { READ_ONLY, grantsWrite, type Footprint, type Grant } from '../packages/grant.js';
import type { Plan, Step, Value } from './plan.js';

/**
 * What a compiled recipe does, read from its plan alone: the connector entity.action pairs it reads and
 * writes (client/actions.ts `writes` decides which write), the secrets it declares and the hosts its http
 * steps reach, its calls included. A call that carries a grant (a package call, or `allow:`) contributes
 * only what its grant lets through: more is refused when it runs, and reported where that call is written.
 */
export function footprintOf(plan: Plan): Footprint {
  const acc = {
    reads: new Set<string>(),
    writes: new Set<string>(),
    secrets: new Set(plan.secrets),
    http: new Set<string>(),
  };
  visit(plan.steps, plan, acc);
  const sorted = (s: Set<string>) => [...s].sort();
  return { reads: sorted(acc.reads), writes: sorted(acc.writes), secrets: sorted(acc.secrets), http: sorted(acc.http) };
}

/**
 * True when running the plan may send a connector API request (a read or a write, its calls included). A
 * write a call's grant does not let through is refused before it is sent, so it does not count.
 */
export function callsConnector(plan: Plan): boolean {
  const f = footprintOf(plan);
  return f.reads.length > 0 || f.writes.length > 0;
}

export interface Acc {
  reads: Set<string>;
  writes: Set<string>;
  secrets: Set<string>;
  http: Set<string>;
}

function visit(steps: readonly Step[], plan: Plan, acc: Acc): void {
  for (const step of steps) {
    switch (step.kind) {
      case 'execute':
      case 'paginate':
      case 'download': {
        const name = `${step.entity}.${step.action}`;
        (writes(undefined, step.entity, step.action) ? acc.writes : acc.reads).add(name);
        if (step.kind === 'execute' && step.inDoubt) acc.reads.add(`${step.inDoubt.entity}.${step.inDoubt.action}`);
        if (step.kind === 'paginate' && step.steps) visit(step.steps, plan, acc);
        break;
      }
      case 'foreach':
        visit(step.steps, plan, acc);
        break;
      case 'http':
        for (const host of hostsOf(step.url, plan)) acc.http.add(host);
        break;
      case 'call': {
        const inner = footprintOf(step.plan);
        const grant: Grant | undefined = step.allow ?? (step.package ? READ_ONLY : undefined);
        for (const r of inner.reads) acc.reads.add(r);
        for (const w of inner.writes) if (!grant || grantsWrite(grant, ...split(w))) acc.writes.add(w);
        for (const h of inner.http) if (!grant || grant.http.includes(h) || grant.http.includes('*')) acc.http.add(h);
        if (!grant) for (const s of inner.secrets) acc.secrets.add(s);
        else for (const s of inner.secrets) if (Object.hasOwn(grant.secrets, s)) acc.secrets.add(grant.secrets[s]!);
        break;
      }
      default:
        break;
    }
  }
}

function split(w: string): [string, string] {
  const dot = w.indexOf('.');
  return [w.slice(0, dot), w.slice(dot + 1)];
}

/** The hosts an http step may reach: the recipe's http.allow when it has one, else the literal URL's host. */
function hostsOf(url: Value, plan: Plan): string[] {
  if (plan.http) return [...plan.http.allow];
  const text =
    url.kind === 'literal' && typeof url.value === 'string'
      ? url.value
      : url.kind === 'template' && typeof url.parts[0] === 'string'
        ? url.parts[0]
        : undefined;
  const host = text ? /^https?:\/\/([^/:?#]+)/i.exec(text)?.[1] : undefined;
  return [host ? host.toLowerCase() : '*'];
}
