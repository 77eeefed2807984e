// The figures of one run: each has a value, the comparison value measured in the same run, their ratio,
// and (when the issue sets one) a target and whether it is met.

/**
 * A target the issue sets: `of` the ratio or the value itself, compared with `limit`.
 * @typedef {{ of: 'ratio' | 'value', op: '<=' | '<' | '>=', limit: number }} Target
 */

/**
 * A figure as a section measures it. `value` and `comparison` are null when not measured (peak RSS without a probe).
 * @typedef {object} FigureInput
 * @property {string} section
 * @property {string} name
 * @property {string} unit
 * @property {number | null} value
 * @property {number | null} [comparison]
 * @property {string} [comparisonName]
 * @property {Target} [target]
 * @property {string} [note]
 */

/** @typedef {FigureInput & { ratio: number | null, met: boolean | null }} Figure */

/** Collects figures; `add` computes the ratio (value / comparison). */
export class Figures {
  constructor() {
    /** @type {Figure[]} */
    this.list = [];
  }

  /**
   * @param {FigureInput} f
   * @returns {Figure}
   */
  add(f) {
    // No ratio when either side was not measured (null / x would read as a ratio of 0).
    const ratio = f.value !== null && f.comparison ? f.value / f.comparison : null;
    let met = null;
    if (f.target) {
      const x = f.target.of === 'ratio' ? ratio : f.value;
      met =
        x === null
          ? null
          : f.target.op === '<='
            ? x <= f.target.limit
            : f.target.op === '<'
              ? x < f.target.limit
              : x >= f.target.limit;
    }
    const fig = { ...f, ratio, met };
    this.list.push(fig);
    return fig;
  }
}

/**
 * @param {number | null | undefined} x
 * @param {string} [unit]
 */
const num = (x, unit) => {
  if (x === null || x === undefined) return '-';
  const digits = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2;
  return `${x.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
};

/**
 * Target as text: "ratio <= 1.10", "< 150 MB".
 * @param {Figure} f
 */
export function targetText(f) {
  if (!f.target) return '';
  return `${f.target.of === 'ratio' ? 'ratio ' : ''}${f.target.op} ${f.target.of === 'ratio' ? f.target.limit.toFixed(2) : num(f.target.limit, f.unit)}`;
}

/**
 * A fixed-width text table of all figures (also used for bench/README.md, as Markdown when md).
 * @param {Figure[]} figs
 */
export function formatTable(figs, md = false) {
  const head = ['figure', 'value', 'comparison', 'ratio', 'target', 'met'];
  const rows = figs.map((f) => [
    `${f.section}: ${f.name}`,
    num(f.value, f.unit),
    f.comparison === undefined || f.comparison === null ? '-' : `${num(f.comparison, f.unit)} (${f.comparisonName})`,
    f.ratio === null ? '-' : f.ratio.toFixed(2),
    targetText(f),
    f.met === null ? '' : f.met ? 'yes' : 'NO',
  ]);
  if (md) {
    return [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  /** @param {string[]} r */
  const line = (r) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
