import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { RecipeGraph } from '../../api-types.js';
import { Graph } from '../components/graph.js';
import { SourceView } from '../components/source-view.js';
import { SubmitForm } from '../components/submit-form.js';
import { useData } from '../use-data.js';

/** Link to a recipe's page. */
export function recipeHref(ref: string): string {
  return `/recipes/${ref.split('/').map(encodeURIComponent).join('/')}`;
}

/** One recipe: its compiled plan as a graph beside its source; problems instead when it does not compile. */
export function RecipePage(props: { refPath: string }): JSX.Element {
  const data = useData<RecipeGraph>(`/api/recipes/graph?ref=${encodeURIComponent(props.refPath)}`);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  if (data.state === 'loading') return <p class="muted">Loading {props.refPath}…</p>;
  if (data.state === 'error') return <p class="error-box">{data.message}</p>;
  const g = data.data;
  const firstProblem = g.problems[0]?.line;
  return (
    <section class="recipe">
      <div class="page-head">
        <p class="crumbs">
          <a href="/recipes">Recipes</a> / <span>{g.ref}</span>
        </p>
        <h1>{g.name ?? g.ref}</h1>
        {g.description ? <p class="muted">{g.description}</p> : null}
      </div>
      <div class="io">
        {g.inputs.length > 0 ? (
          <div>
            <h2>Inputs</h2>
            <ul class="chips">
              {g.inputs.map((i) => (
                <li key={i.name}>
                  <code>{i.name}</code> {i.type}
                  {i.required ? ' (required)' : i.default !== undefined ? ` = ${i.default}` : ''}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {g.outputs.length > 0 ? (
          <div>
            <h2>Outputs</h2>
            <ul class="chips">
              {g.outputs.map((o) => (
                <li key={o.name} title={o.value}>
                  <code>{o.name}</code>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
      <SubmitForm recipe={g} />
      {g.problems.length > 0 ? (
        <div class="error-box" role="alert">
          <h2>This recipe does not compile</h2>
          <ul>
            {g.problems.map((p, i) => (
              <li key={i}>
                line {p.line}:{p.column} <code>{p.code}</code> {p.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div class="split">
        <div class="pane">
          <h2 class="sr-only">Steps</h2>
          {g.steps.length > 0 ? (
            <Graph steps={g.steps} selected={selected} onSelect={setSelected} recipeHref={recipeHref} />
          ) : null}
        </div>
        <div class="pane">
          <h2 class="pane-title">{g.ref}</h2>
          <SourceView
            source={g.source}
            mark={selected ?? firstProblem}
            kind={selected === undefined && firstProblem !== undefined ? 'error' : 'select'}
          />
        </div>
      </div>
    </section>
  );
}
