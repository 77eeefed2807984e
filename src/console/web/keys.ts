import { navigate } from './router.js';

/** Elements the j/k keys move between: rows of lists, nodes of the graph. */
const NAV_ITEMS = '[data-nav]';

let pendingG = false;

/**
 * Keyboard use beyond Tab: `g r` / `g e` / `g s` go to runs, recipes, service; `j` / `k` move between the
 * items of the page; `/` focuses the page's filter; `?` shows the keys. Keys typed in a field are left alone.
 */
export function installKeys(): void {
  document.addEventListener('keydown', (e) => {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName))) {
      if (e.key === 'Escape') t.blur();
      return;
    }
    if (pendingG) {
      pendingG = false;
      const to = { r: '/runs', e: '/recipes', s: '/service' }[e.key];
      if (to) {
        e.preventDefault();
        navigate(to);
        focusMain();
      }
      return;
    }
    switch (e.key) {
      case 'g':
        pendingG = true;
        setTimeout(() => (pendingG = false), 1500);
        return;
      case 'j':
      case 'k':
        e.preventDefault();
        move(e.key === 'j' ? 1 : -1);
        return;
      case '/': {
        const filter = document.querySelector<HTMLElement>('[data-filter]');
        if (filter) {
          e.preventDefault();
          filter.focus();
        }
        return;
      }
      case '?':
        e.preventDefault();
        document.dispatchEvent(new CustomEvent('toggle-key-help'));
        return;
    }
  });
}

function move(step: number): void {
  const items = [...document.querySelectorAll<HTMLElement>(NAV_ITEMS)].filter((el) => el.offsetParent !== null);
  if (items.length === 0) return;
  const at = items.findIndex((el) => el === document.activeElement || el.contains(document.activeElement));
  const next = items[at < 0 ? (step > 0 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + step))];
  next?.focus();
  next?.scrollIntoView({ block: 'nearest' });
}

function focusMain(): void {
  setTimeout(() => document.getElementById('main')?.focus(), 0);
}
