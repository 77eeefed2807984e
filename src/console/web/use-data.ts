import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';

/** What a page knows of one API document: loading, the data, or the error. */
export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ok'; readonly data: T }
  | { readonly state: 'error'; readonly message: string };

/** Loads `path` (again whenever it or `tick` changes); stale answers of an earlier path are dropped. */
export function useData<T>(path: string, tick = 0): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    const ctl = new AbortController();
    getJson<T>(path, ctl.signal).then(
      (data) => setLoaded({ state: 'ok', data }),
      (err: unknown) => {
        if (!ctl.signal.aborted) setLoaded({ state: 'error', message: (err as Error).message });
      },
    );
    return () => ctl.abort();
  }, [path, tick]);
  return loaded;
}
