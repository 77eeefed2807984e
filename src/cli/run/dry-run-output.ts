import { formatFileLineCol } from '../../errors/index.js';
import type { DryRunWrite } from '../../run/index.js';

/**
 * The writes a dry-run did not send, one line each; a write the service would refuse is marked ✗ and
 * followed by its problems, each at its step's FILE:LINE with the loop index of the item.
 */
export function formatDryRunWrites(writes: readonly DryRunWrite[]): string {
  const invalid = writes.filter((w) => 'valid' in w && w.valid === false).length;
  const lines = [
    `dry run: ${writes.length} write${writes.length === 1 ? '' : 's'} not sent${invalid > 0 ? `, ${invalid} invalid` : ''}`,
  ];
  for (const w of writes) {
    const item = w.loop_index ? `, item ${w.loop_index.join('.')}` : '';
    const where = `(step ${w.step}, line ${w.line}${item})`;
    if ('url' in w) {
      lines.push(`  ${w.method} ${w.url} ${where}${w.body === undefined ? '' : ` ${JSON.stringify(w.body)}`}`);
      continue;
    }
    const mark = w.valid === false ? '✗ ' : '';
    lines.push(`  ${mark}${w.body.entity}.${w.body.action} ${where} ${JSON.stringify(w.body.params)}`);
    for (const p of w.problems ?? [])
      lines.push(
        `      ${formatFileLineCol(w)}: ${p.code} ${p.message}${item ? ` (item ${w.loop_index?.join('.')})` : ''}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
