import { basename } from 'node:path';
import type { Plan, RetryPolicy, Step, Value } from '../compile/index.js';
import type { GraphNode } from './api-types.js';

/** Longest text a node shows for one value; the recipe's source, beside the graph, has the rest. */
const MAX_TEXT = 160;

/**
 * The steps of a compiled plan as plain data for the recipe page: one node per step, groups for the
 * nested steps of foreach and streaming paginate, the called plan under a `call`, `when` kept apart so
 * the page can draw it on the edge. `refOf` maps a called file to a ref the console can open (or none).
 */
export function planGraph(plan: Plan, refOf: (file: string) => string | undefined): GraphNode[] {
  return plan.steps.map((s) => stepNode(s, refOf));
}

function stepNode(step: Step, refOf: (file: string) => string | undefined): GraphNode {
  const facts: Record<string, string> = {};
  let summary = '';
  let steps: GraphNode[] | undefined;
  let call: GraphNode['call'];
  switch (step.kind) {
    case 'execute':
      summary = `${step.entity}.${step.action}`;
      facts.params = valueText(step.params);
      if (step.waitForContextStore) facts.wait_for_context_store = 'true';
      break;
    case 'paginate':
      summary = `${step.entity}.${step.action}`;
      facts.params = valueText(step.params);
      facts.max_pages = String(step.maxPages);
      if (step.maxItems !== undefined) facts.max_items = String(step.maxItems);
      if (step.next) facts.next = valueText(step.next);
      if (step.as !== undefined) facts.as = `$${step.as}`;
      if (step.steps) steps = step.steps.map((s) => stepNode(s, refOf));
      break;
    case 'foreach':
      summary = valueText(step.items);
      facts.as = `$${step.as}`;
      if (step.indexAs !== undefined) facts.index_as = `$${step.indexAs}`;
      facts.concurrency = String(step.concurrency);
      if (step.collect) facts.collect = valueText(step.collect);
      steps = step.steps.map((s) => stepNode(s, refOf));
      break;
    case 'transform':
      summary = valueText(step.value);
      break;
    case 'set':
      summary = Object.keys(step.values).join(', ');
      for (const [name, v] of Object.entries(step.values)) facts[name] = valueText(v);
      break;
    case 'log':
    case 'fail':
      summary = valueText(step.message);
      break;
    case 'assert':
      summary = valueText(step.condition);
      if (step.message) facts.message = valueText(step.message);
      break;
    case 'call': {
      // Only a recipe inside the console's folders is drawn; one elsewhere is named (its file name, never
      // its absolute path) and its steps are not read out.
      const ref = refOf(step.path);
      summary = step.plan.name;
      for (const [name, v] of Object.entries(step.with)) facts[`with.${name}`] = valueText(v);
      call =
        ref !== undefined
          ? { file: ref, ref, name: step.plan.name, steps: planGraph(step.plan, refOf) }
          : { file: basename(step.path), name: step.plan.name, steps: [] };
      break;
    }
    case 'download':
      summary = `${step.entity}.${step.action}`;
      facts.params = valueText(step.params);
      facts.to = valueText(step.to);
      break;
    case 'http':
      summary = `${step.method} ${valueText(step.url)}`;
      if (step.query) facts.query = valueText(step.query);
      if (step.headers) facts.headers = valueText(step.headers);
      if (step.json) facts.json = valueText(step.json);
      if (step.body) facts.body = valueText(step.body);
      if (step.successStatus.join() !== '2xx') facts.success_status = step.successStatus.join(', ');
      break;
    default: {
      const never: never = step;
      throw new Error(`unknown step kind ${JSON.stringify(never)}`);
    }
  }
  if (step.retry) facts.retry = retryText(step.retry);
  if (step.timeoutMs !== undefined) facts.timeout_ms = String(step.timeoutMs);
  if (step.onError !== 'fail') facts.on_error = step.onError;
  if (step.connector) facts.connector = connectorText(step);
  if (step.assign) facts.assign = Object.keys(step.assign).join(', ');
  return {
    kind: step.kind,
    label: step.id ?? `${step.kind}@${step.loc.line}`,
    ...(step.id !== undefined ? { id: step.id } : {}),
    line: step.loc.line,
    summary: clip(summary),
    facts,
    ...(step.when ? { when: valueText(step.when) } : {}),
    ...(steps ? { steps } : {}),
    ...(call ? { call } : {}),
  };
}

/** A value as the recipe wrote it: literals as JSON, expressions in `${ }`, containers member by member. */
export function valueText(v: Value): string {
  return clip(text(v));
}

function text(v: Value): string {
  switch (v.kind) {
    case 'literal':
      return typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
    case 'expr':
      return `\${ ${v.expr.source.trim()} }`;
    case 'template':
      return v.parts.map((p) => (typeof p === 'string' ? p : `\${ ${p.source.trim()} }`)).join('');
    case 'object':
      return `{ ${Object.entries(v.entries)
        .map(([k, e]) => `${k}: ${text(e)}`)
        .join(', ')} }`;
    case 'array':
      return `[${v.items.map(text).join(', ')}]`;
  }
}

function retryText(r: RetryPolicy): string {
  return `${r.maxAttempts} attempts, ${r.initialDelayMs}–${r.maxDelayMs} ms ×${r.factor}${r.jitter ? ', jitter' : ''}`;
}

function connectorText(step: Step): string {
  const c = step.connector;
  if (!c) return '';
  if (c.kind === 'id') return `id ${text(c.id)}`;
  return `${c.workspace ? `${text(c.workspace)}/` : ''}${text(c.definition)}`;
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX_TEXT ? `${one.slice(0, MAX_TEXT - 1)}…` : one;
}
