import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ConnectorView, ServiceView } from '../../api-types.js';
import { useData } from '../use-data.js';
import { TableHead } from '../components/table-head.js';

/** How often the page reads the service again while some entity is still being indexed. */
const REFRESH_MS = 3000;

/** The connector service: workspaces, their connectors, and the context store's readiness per entity. */
export function ServicePage(): JSX.Element {
  const [tick, setTick] = useState(0);
  const data = useData<ServiceView>('/api/service', tick);
  const indexing =
    data.state === 'ok' &&
    data.data.workspaces.some((w) => w.connectors.some((c) => c.entities.some((e) => e.status !== 'Ready')));
  useEffect(() => {
    if (!indexing) return;
    const t = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
    return () => clearTimeout(t);
  }, [indexing, tick]);
  return (
    <section>
      <div class="page-head">
        <h1>Service</h1>
        <p class="muted">
          {data.state === 'ok' ? data.data.label : 'reading the connector service…'}
          {indexing ? ' · indexing, refreshing every 3 s' : ''}
        </p>
        <button type="button" class="secondary" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </button>
      </div>
      {data.state === 'loading' ? <p class="muted">Starting or reaching the service…</p> : null}
      {data.state === 'error' ? <p class="error-box">{data.message}</p> : null}
      {data.state === 'ok' && data.data.error ? (
        <p class="error-box" role="alert">
          {data.data.error}
        </p>
      ) : null}
      {data.state === 'ok'
        ? data.data.workspaces.map((w) => (
            <section key={w.id} class="workspace" aria-label={`Workspace ${w.name}`}>
              <h2>
                {w.name} <span class={`badge ${w.status === 'active' ? 'ok' : 'muted'}`}>{w.status}</span>
              </h2>
              {w.connectors.length === 0 ? <p class="muted">No connectors.</p> : null}
              <div class="connectors">
                {w.connectors.map((c) => (
                  <Connector key={c.id} c={c} />
                ))}
              </div>
            </section>
          ))
        : null}
    </section>
  );
}

function Connector(props: { c: ConnectorView }): JSX.Element {
  const { c } = props;
  return (
    <article class="connector" data-nav tabIndex={0} aria-label={`Connector ${c.name}`}>
      <header>
        <h3>{c.name}</h3>
        <span class="muted">{c.type}</span>
        {c.context_store_status !== null ? (
          <span class={`badge ${statusClass(c.context_store_status)}`}>{c.context_store_status}</span>
        ) : (
          <span class="badge muted">no context store</span>
        )}
      </header>
      <p class="muted mono">{c.id}</p>
      {c.error ? <p class="error-box">{c.error}</p> : null}
      {c.entities.length > 0 ? (
        <table>
          <caption class="sr-only">Context store readiness of {c.name}</caption>
          <TableHead columns={['Entity', 'Status', 'Searchable', { num: 'Records' }, 'Updated']} />
          <tbody>
            {c.entities.map((e) => (
              <tr key={e.entity}>
                <th scope="row">{e.entity}</th>
                <td>
                  <span class={`badge ${statusClass(e.status)}`}>{e.status}</span>
                </td>
                <td>{e.ready_for_search ? 'yes' : 'no'}</td>
                <td class="num">{e.entity_count ?? '–'}</td>
                <td class="muted">{e.updated_at ? new Date(e.updated_at).toLocaleString() : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {c.warnings.length > 0 ? (
        <ul class="warnings">
          {c.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

function statusClass(status: string): string {
  if (status === 'Ready') return 'ok';
  if (status === 'Preview') return 'warn';
  return 'running';
}
