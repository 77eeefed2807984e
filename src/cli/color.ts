/**
 * Whether to colour what is written for a person. FORCE_COLOR (any value but 0 or false) forces colour even
 * into a pipe and wins over NO_COLOR, as in Node and most CLIs; otherwise colour needs a terminal and no NO_COLOR.
 */
export function useColor(env: Readonly<Record<string, string | undefined>>, isTerminal: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTerminal && !env.NO_COLOR;
}
