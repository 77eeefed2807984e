import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { ConsoleInfo, RecipeGraph, SubmitAnswer } from '../../api-types.js';
import { postAction } from '../api.js';
import { useData } from '../use-data.js';

/**
 * "Submit to the fleet" on a recipe page (a console reading a fleet): the inputs as one JSON object, sent with
 * the console's CSRF token to POST /api/runs, which checks them as `recipe submit` does. The answer links the
 * queued run; a refusal (an invalid recipe, a missing input) is shown as the server words it.
 */
export function SubmitForm(props: { recipe: RecipeGraph }): JSX.Element | null {
  const info = useData<ConsoleInfo>('/api/info');
  const { recipe } = props;
  const [text, setText] = useState(() => JSON.stringify(exampleInputs(recipe), null, 2));
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; error: boolean; link?: string } | null>(null);
  if (info.state !== 'ok' || info.data.actions.submit_unavailable !== null || recipe.problems.length > 0) return null;
  const csrf = info.data.actions.csrf_token;
  const submit = async (): Promise<void> => {
    let inputs: unknown;
    try {
      inputs = JSON.parse(text.trim() === '' ? '{}' : text);
    } catch (err) {
      setSaid({ text: `Inputs: not JSON (${(err as Error).message})`, error: true });
      return;
    }
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
      setSaid({ text: 'Inputs: a JSON object, {"name": value, ...}', error: true });
      return;
    }
    setBusy(true);
    setSaid(null);
    try {
      const a = await postAction<SubmitAnswer>('/api/runs', { recipe: recipe.ref, inputs }, csrf);
      setSaid({ text: `Queued as run ${a.run_id}.`, error: false, link: a.link });
    } catch (err) {
      setSaid({ text: (err as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="run-actions" aria-label="Submit to the fleet">
      <h2>Submit to the fleet</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <textarea
          aria-label="Inputs (JSON)"
          rows={Math.min(10, Math.max(2, recipe.inputs.length + 2))}
          spellcheck={false}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        <button type="submit" class="secondary" disabled={busy}>
          Submit
        </button>
      </form>
      {said ? (
        <p class={said.error ? 'error-box' : 'muted'} role={said.error ? 'alert' : 'status'}>
          {said.text} {said.link ? <a href={said.link}>Open the run</a> : null}
        </p>
      ) : null}
    </section>
  );
}

/** The inputs object to start from: each input with its default, a required one without a default as null (to fill). */
function exampleInputs(recipe: RecipeGraph): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const i of recipe.inputs) {
    if (i.default === undefined) {
      if (i.required) out[i.name] = null;
    } else {
      try {
        out[i.name] = JSON.parse(i.default);
      } catch {
        out[i.name] = i.default;
      }
    }
  }
  return out;
}
