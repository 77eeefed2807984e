import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { RecipeSummary } from '../../api-types.js';
import { useData } from '../use-data.js';

/** Every recipe under the console's folders, filterable, each linking to its graph. */
export function RecipesPage(): JSX.Element {
  const data = useData<{ folders: string[]; recipes: RecipeSummary[] }>('/api/recipes');
  const [filter, setFilter] = useState('');
  if (data.state === 'loading') return <p class="muted">Loading recipes…</p>;
  if (data.state === 'error') return <p class="error-box">{data.message}</p>;
  const f = filter.trim().toLowerCase();
  const shown = data.data.recipes.filter(
    (r) => !f || r.ref.toLowerCase().includes(f) || (r.name ?? '').toLowerCase().includes(f),
  );
  return (
    <section>
      <div class="page-head">
        <h1>Recipes</h1>
        <p class="muted">
          {data.data.recipes.length} file{data.data.recipes.length === 1 ? '' : 's'} under{' '}
          {data.data.folders.join(', ')}
        </p>
      </div>
      <div class="toolbar">
        <label>
          <span class="sr-only">Filter recipes</span>
          <input
            type="search"
            data-filter
            placeholder="Filter by name or file  ( / )"
            value={filter}
            onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      <ul class="cards">
        {shown.map((r) => (
          <li key={r.ref}>
            <a class="recipe-card" data-nav href={`/recipes/${r.ref.split('/').map(encodeURIComponent).join('/')}`}>
              <span class="name">{r.name ?? r.ref}</span>
              <span class="file">{r.ref}</span>
              {r.description ? <span class="desc">{r.description}</span> : null}
              {r.problems > 0 ? (
                <span class="badge failed">
                  {r.problems} problem{r.problems === 1 ? '' : 's'}
                </span>
              ) : null}
            </a>
          </li>
        ))}
      </ul>
      {shown.length === 0 ? <p class="muted">No recipe matches.</p> : null}
    </section>
  );
}
