import type { JSX } from 'preact';
import type { GraphNode } from '../../api-types.js';

/** Step kinds drawn as a group around their nested steps. */
const GROUP_KINDS = new Set(['foreach', 'paginate']);

/**
 * A plan drawn top to bottom: one card per step, an edge between consecutive steps carrying the next
 * step's `when`, foreach and streaming paginate as boxes around their steps, a `call` as a link to the
 * called recipe with its steps folded beneath.
 */
export function Graph(props: {
  steps: readonly GraphNode[];
  selected: number | undefined;
  onSelect: (line: number) => void;
  recipeHref: (ref: string) => string;
}): JSX.Element {
  return (
    <div class="graph" role="tree" aria-label="Steps">
      <Start />
      <Flow {...props} />
      <div class="edge" aria-hidden="true" />
      <div class="terminal">end</div>
    </div>
  );
}

function Start(): JSX.Element {
  return <div class="terminal">start</div>;
}

function Flow(props: {
  steps: readonly GraphNode[];
  selected: number | undefined;
  onSelect: (line: number) => void;
  recipeHref: (ref: string) => string;
}): JSX.Element {
  return (
    <ol class="flow" role="group">
      {props.steps.map((node) => (
        <li key={`${node.line}-${node.label}`} role="treeitem" aria-selected={props.selected === node.line}>
          <Edge when={node.when} />
          <Node {...props} node={node} />
        </li>
      ))}
    </ol>
  );
}

function Edge(props: { when: string | undefined }): JSX.Element {
  return (
    <div class={props.when ? 'edge conditional' : 'edge'}>
      {props.when ? (
        <span class="when" title={`when ${props.when}`}>
          when {props.when}
        </span>
      ) : null}
    </div>
  );
}

function Node(props: {
  node: GraphNode;
  selected: number | undefined;
  onSelect: (line: number) => void;
  recipeHref: (ref: string) => string;
}): JSX.Element {
  const { node } = props;
  const group = GROUP_KINDS.has(node.kind) && node.steps && node.steps.length > 0;
  const card = (
    <button
      type="button"
      class={`card kind-${node.kind}${props.selected === node.line ? ' selected' : ''}`}
      data-nav
      data-line={node.line}
      onClick={() => props.onSelect(node.line)}
      aria-label={`${node.kind} ${node.label}, line ${node.line}`}
    >
      <span class="card-head">
        <span class="kind">{node.kind}</span>
        <span class="label">{node.label}</span>
        <span class="line-no">:{node.line}</span>
      </span>
      {node.summary ? <span class="summary">{node.summary}</span> : null}
      <Facts facts={node.facts} />
    </button>
  );
  if (group && node.steps) {
    return (
      <div class={`group group-${node.kind}`}>
        {card}
        <div class="group-body">
          <Flow {...props} steps={node.steps} />
        </div>
      </div>
    );
  }
  if (node.call) {
    const call = node.call;
    return (
      <div class="group group-call">
        {card}
        <div class="call-link">
          calls{' '}
          {call.ref !== undefined ? (
            <a href={props.recipeHref(call.ref)}>{call.ref}</a>
          ) : (
            <>
              <code>{call.file}</code> ({call.name}, outside the recipe folders: not drawn)
            </>
          )}
        </div>
        {call.ref !== undefined && (
          <details class="call-steps">
            <summary>
              {call.steps.length} step{call.steps.length === 1 ? '' : 's'} of {call.name}
            </summary>
            <Flow {...props} steps={call.steps} />
          </details>
        )}
      </div>
    );
  }
  return card;
}

/** Facts shown on the card itself; the rest are in the tooltip-free details list. */
const SHOWN = ['as', 'concurrency', 'max_pages', 'max_items', 'on_error', 'retry', 'timeout_ms', 'collect', 'to'];

function Facts(props: { facts: Readonly<Record<string, string>> }): JSX.Element | null {
  const entries = Object.entries(props.facts).filter(([k]) => SHOWN.includes(k) || k.startsWith('with.'));
  if (entries.length === 0) return null;
  return (
    <span class="facts">
      {entries.map(([k, v]) => (
        <span key={k} class="fact">
          <span class="fact-k">{k}</span> {v}
        </span>
      ))}
    </span>
  );
}
