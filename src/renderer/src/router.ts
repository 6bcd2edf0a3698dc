import { useSyncExternalStore } from 'react';

// Hash routes (#/post/123?x=1): the page is one file served at /, in a browser and in Electron's
// file:// load alike, so no server-side routing is needed.
export interface Route {
  /** Path segments: '#/post/123' -> ['post', '123']. */
  parts: string[];
  query: URLSearchParams;
}

function parse(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = raw.split('?', 2);
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

// The route is read from the address itself at every snapshot (parsed again only when it changed):
// a hash that changed before the app subscribed (a navigation right after a reload) is not missed.
let currentHash = window.location.hash;
let current = parse(currentHash);
function snapshot(): Route {
  if (window.location.hash !== currentHash) {
    currentHash = window.location.hash;
    current = parse(currentHash);
  }
  return current;
}
const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, snapshot);
}

/** '#/search' + {q: 'from:x'} -> '#/search?q=from%3Ax' */
export function href(path: string, query: Record<string, string | number | undefined | null> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

export function navigate(path: string, query: Record<string, string | number | undefined | null> = {}): void {
  window.location.hash = href(path, query).slice(1);
}
