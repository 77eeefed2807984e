import type { JSX } from 'preact';
import type { ConsoleInfo } from '../api-types.js';
import { KeyHelp } from './components/key-help.js';
import { FleetPage } from './pages/fleet.js';
import { RecipePage } from './pages/recipe.js';
import { RecipesPage } from './pages/recipes.js';
import { RunPage } from './pages/run.js';
import { RunsPage } from './pages/runs.js';
import { SchedulesPage } from './pages/schedules.js';
import { ServicePage } from './pages/service.js';
import { onLinkClick, useLocation } from './router.js';
import { useData } from './use-data.js';

/** The console: a header with the sections, then the page the path names. */
export function App(): JSX.Element {
  const { path, query } = useLocation();
  const info = useData<ConsoleInfo>('/api/info');
  const section = path.startsWith('/recipes')
    ? 'recipes'
    : path.startsWith('/service')
      ? 'service'
      : path.startsWith('/schedules')
        ? 'schedules'
        : path.startsWith('/fleet')
          ? 'fleet'
          : 'runs';
  let page: JSX.Element;
  if (path.startsWith('/recipes/')) page = <RecipePage key={path} refPath={decodeURIComponent(path.slice(9))} />;
  else if (path.startsWith('/recipes')) page = <RecipesPage />;
  else if (path.startsWith('/service')) page = <ServicePage />;
  else if (path.startsWith('/schedules')) page = <SchedulesPage info={info.state === 'ok' ? info.data : undefined} />;
  else if (path.startsWith('/fleet')) page = <FleetPage />;
  else if (/^\/runs\/[^/]+\/?$/.test(path))
    page = <RunPage key={path} runId={decodeURIComponent(path.split('/')[2] ?? '')} />;
  else
    page = <RunsPage key={path + query.toString()} info={info.state === 'ok' ? info.data : undefined} query={query} />;
  return (
    <div class="shell" onClick={onLinkClick}>
      <header class="top">
        <a class="brand" href="/">
          recipe <span>console</span>
        </a>
        <nav aria-label="Sections">
          <NavLink href="/runs" current={section === 'runs'} label="Runs" />
          <NavLink href="/recipes" current={section === 'recipes'} label="Recipes" />
          <NavLink href="/service" current={section === 'service'} label="Service" />
          {info.state === 'ok' && info.data.actions.schedules_unavailable === null ? (
            <NavLink href="/schedules" current={section === 'schedules'} label="Schedules" />
          ) : null}
          {info.state === 'ok' && info.data.fleet.available ? (
            <NavLink href="/fleet" current={section === 'fleet'} label="Fleet" />
          ) : null}
        </nav>
        <span class="version">{info.state === 'ok' ? `v${info.data.version}` : ''}</span>
      </header>
      <main id="main" tabIndex={-1}>
        {page}
      </main>
      <KeyHelp />
    </div>
  );
}

function NavLink(props: { href: string; current: boolean; label: string }): JSX.Element {
  return (
    <a href={props.href} aria-current={props.current ? 'page' : undefined}>
      {props.label}
    </a>
  );
}
