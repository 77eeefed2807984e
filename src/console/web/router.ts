import { useEffect, useState } from 'preact/hooks';

/** The current location, updated on navigate() and on back/forward. */
let listeners: (() => void)[] = [];

/** Goes to an in-console path without reloading the page. */
export function navigate(to: string): void {
  if (to === location.pathname + location.search) return;
  history.pushState(null, '', to);
  for (const l of listeners) l();
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  for (const l of listeners) l();
});

/** The path and query of the current page; re-renders the caller when they change. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = (): void => setTick((n) => n + 1);
    listeners.push(l);
    return () => {
      listeners = listeners.filter((x) => x !== l);
    };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** Plain left clicks on in-console links navigate in place; modified clicks (new tab) keep the browser's way. */
export function onLinkClick(e: MouseEvent): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest('a');
  if (!a || a.target || a.origin !== location.origin || a.hasAttribute('download')) return;
  if (a.pathname === location.pathname && a.hash) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
}
