/**
 * Whether a recipe's `http.allow` list lets a request reach `url`. Entries: a host name (any case), an IP
 * address ([::1] for IPv6), either with :port to allow only that port, or *.example.com for every subdomain
 * of example.com (not example.com itself).
 */
export function isHostAllowed(url: URL, allow: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allow.some((entry) => {
    const { name, port: wanted } = splitEntry(entry.trim().toLowerCase());
    if (wanted !== undefined && wanted !== port) return false;
    if (name.startsWith('*.')) return host.endsWith(name.slice(1)) && host.length > name.length - 1;
    return host === name;
  });
}

function splitEntry(entry: string): { name: string; port?: string } {
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1]!, ...(bracketed[2] ? { port: bracketed[2] } : {}) };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { name: withPort[1]!, port: withPort[2]! };
  return { name: entry };
}
