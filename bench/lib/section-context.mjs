// What bench/run.mjs hands each section. JSDoc types only: nothing here runs.

/** @typedef {(line: string) => void} Log  Writes one progress line (stderr, with the elapsed time). */

/**
 * What every section gets.
 * @typedef {object} SectionContext
 * @property {import('./figures.mjs').Figures} figures  where the section adds its figures
 * @property {Log} log
 * @property {string} tmp  a scratch folder, removed at the end of the run
 */

/**
 * What the sections that run against the seeded service get.
 * @typedef {SectionContext & { server: import('./service.mjs').ServiceHandle, runs: number }} ServiceContext
 */

export {};
