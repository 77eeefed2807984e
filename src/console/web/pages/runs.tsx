import type { JSX } from 'preact';
import type { ConsoleInfo } from '../../api-types.js';

/** The runs of the journal; until this build has a journal, says so and where to go instead. */
export function RunsPage(props: { info: ConsoleInfo | undefined }): JSX.Element {
  const journal = props.info?.journal;
  return (
    <section>
      <div class="page-head">
        <h1>Runs</h1>
      </div>
      {journal && !journal.available ? (
        <div class="empty" role="status">
          <p>No runs to show: {journal.reason}.</p>
          <p>
            Meanwhile: the <a href="/recipes">recipes</a> drawn as graphs, and the <a href="/service">service</a> with
            its context store.
          </p>
        </div>
      ) : (
        <p class="muted">Loading…</p>
      )}
    </section>
  );
}
