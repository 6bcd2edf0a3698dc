import { type ReactNode, useEffect, useRef } from 'react';
import { navigate, useRoute } from '../router';
import { useUi } from '../stores/ui';
import { isDesktop } from '../api/transport';
import { useConnection } from '../api/connection';
import { Icon } from './Icon';

const DETAIL_PAGES = new Set(['post', 'article', 'space']);

/** An overview belongs to what it describes: a job's to Jobs (or Exports, opened from there), a user's to Timeline, a query's to Search. */
function overviewSection(query: URLSearchParams, lastList: string): string {
  if (query.has('job')) return lastList === 'exports' ? 'exports' : 'jobs';
  return query.has('user') ? 'timeline' : 'search';
}

export const NAV = [
  { path: '/', label: 'Home', icon: 'home', match: [''] },
  { path: '/timeline', label: 'Timeline', icon: 'timeline', match: ['timeline'] },
  { path: '/search', label: 'Search', icon: 'search', match: ['search'] },
  { path: '/jobs', label: 'Jobs', icon: 'jobs', match: ['jobs'] },
  { path: '/exports', label: 'Exports', icon: 'exports', match: ['exports'] },
  { path: '/settings', label: 'Settings', icon: 'settings', match: ['settings'] },
] as const;

/**
 * The frame of every view: sidebar navigation, the view's content, passing notices. Alt+1..6 jump
 * between sections (the desktop menu binds Ctrl/Cmd+1..6 to the same), "/" opens search.
 */
export function Layout({ children }: { children: ReactNode }) {
  const route = useRoute();
  const here = route.parts[0] ?? '';
  // A post, article or space page belongs to the list it was opened from (a search result stays
  // under Search, a timeline's post under Timeline); opened directly, to Home.
  const lastList = useRef('');
  const section = here === 'overview' ? overviewSection(route.query, lastList.current) : DETAIL_PAGES.has(here) ? lastList.current : here;
  if (!DETAIL_PAGES.has(here) && here !== 'overview') lastList.current = here;
  const toasts = useUi((s) => s.toasts);
  const dismiss = useUi((s) => s.dismiss);
  const down = useConnection((s) => s.down);
  const collapsed = useUi((s) => s.sidebarCollapsed);
  const setCollapsed = useUi((s) => s.setSidebarCollapsed);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
      if (e.altKey && /^[1-6]$/.test(e.key)) {
        navigate(NAV[Number(e.key) - 1]!.path);
        e.preventDefault();
      } else if (e.key === '/' && !typing) {
        navigate('/search');
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className={`shell ${collapsed ? 'collapsed' : ''}`}>
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
      <nav className="sidebar" aria-label="Sections">
        <div className="brand">
          <span className="brand-mark"><Icon name="brand" size={22} /></span>
          <span className="brand-name">Skein</span>
        </div>
        <ul>
          {NAV.map((item, i) => {
            const current = (item.match as readonly string[]).includes(section);
            return (
              <li key={item.path}>
                <a href={`#${item.path}`} aria-current={current ? 'page' : undefined} title={`${item.label} (Alt+${i + 1})`}>
                  <span className="nav-icon"><Icon name={item.icon} /></span>
                  <span className="nav-label">{item.label}</span>
                </a>
              </li>
            );
          })}
        </ul>
        {/* Notices sit in the sidebar's free space, where they cover nothing of a view (issue 15). */}
        <div className="toasts" role="status" aria-live="polite">
          {toasts.map((t) => (
            <div key={t.id} className={`toast ${t.tone}`}>
              <span>{t.text}</span>
              <button type="button" aria-label="Dismiss" onClick={() => dismiss(t.id)}>×</button>
            </div>
          ))}
        </div>
        <div className="sidebar-foot muted small">
          <span className="nav-label">{isDesktop ? 'Desktop app' : 'Headless mode'}</span>
          <button
            type="button"
            className="link small sidebar-toggle"
            aria-pressed={collapsed}
            title={collapsed ? 'Show the section names' : 'Show icons only'}
            onClick={() => setCollapsed(!collapsed)}
          >
            {collapsed ? '»' : '«'}
            <span className="sr-only">{collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}</span>
          </button>
        </div>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {down ? (
          <div className="connection-banner" role="alert">
            Skein is not answering (was <code>skein serve</code> stopped?). This page reconnects by itself when it is back, and
            nothing you were looking at is lost.
          </div>
        ) : null}
        {children}
      </main>
    </div>
  );
}

export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}
