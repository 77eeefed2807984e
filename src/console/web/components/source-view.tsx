import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A recipe's source with line numbers; line `mark` is highlighted (red for the failing line, blue for
 * the selected step) and scrolled into view.
 */
export function SourceView(props: {
  source: string;
  mark?: number | undefined;
  kind?: 'error' | 'select';
}): JSX.Element {
  const lines = props.source.replace(/\n$/, '').split('\n');
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.mark === undefined) return;
    const el = box.current?.querySelector<HTMLElement>(`[data-line="${props.mark}"]`);
    if (el && box.current) box.current.scrollTop = Math.max(0, el.offsetTop - box.current.clientHeight / 3);
  }, [props.mark, props.source]);
  return (
    <div class="source" ref={box} tabIndex={0} aria-label="Recipe source">
      <pre>
        <code>
          {lines.map((text, i) => {
            const n = i + 1;
            const marked = n === props.mark;
            return (
              <span
                key={n}
                class={marked ? `line mark-${props.kind ?? 'select'}` : 'line'}
                data-line={n}
                aria-current={marked ? 'true' : undefined}
              >
                <span class="ln" aria-hidden="true">
                  {n}
                </span>
                {text || ' '}
                {'\n'}
              </span>
            );
          })}
        </code>
      </pre>
    </div>
  );
}
