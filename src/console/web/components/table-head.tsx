import type { JSX } from 'preact';

/** A column header: its label, or `{ num: label }` for a right-aligned numeric column. */
export type Column = string | { readonly num: string };

/** A table's header row, each column `scope="col"` (the four tables of the console share it). */
export function TableHead(props: { columns: readonly Column[] }): JSX.Element {
  return (
    <thead>
      <tr>
        {props.columns.map((c) =>
          typeof c === 'string' ? (
            <th key={c} scope="col">
              {c}
            </th>
          ) : (
            <th key={c.num} scope="col" class="num">
              {c.num}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
