/** A new run id: 12 hex digits from the run's random source ($run.id). */
export function newRunId(random: () => number): string {
  let id = '';
  for (let i = 0; i < 12; i++) id += Math.floor(random() * 16).toString(16);
  return id;
}

/** Run ids a user may choose (--run-id): they name lock files and appear in commands, so keep them plain. */
export function isValidRunId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id);
}
