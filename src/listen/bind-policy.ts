// When a server of ours may start: on loopback freely, elsewhere only behind a token. One rule for the
// console and the triggers server, so they cannot drift apart.

/** The shortest token accepted. */
export const MIN_TOKEN_LENGTH = 16;

/** True for the names of this machine's loopback interface, where no token is needed. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Why a server may not start on `host` with `token` (a token too short; a host off loopback without one),
 * or undefined when it may. `what` names the server, `tokenFrom` where its token is given.
 */
export function bindRefusal(
  host: string,
  token: string | undefined,
  what: string,
  tokenFrom: string,
): string | undefined {
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH)
    return `the token must be at least ${MIN_TOKEN_LENGTH} characters`;
  if (!isLoopback(host) && token === undefined)
    return `--host ${host} makes ${what} reachable from other machines: give it a token (${tokenFrom})`;
  return undefined;
}
