import { create } from 'zustand';

// The Search page's recent and saved queries (issue 15 "Query history and saved queries"), on this
// machine, in localStorage like the other view settings. Bounded: the 50 most recent searches
// (a repeat moves to the top), 200 saved queries under unique names of 1 to 80 characters. A
// damaged entry is dropped, never breaking the page.
const STORAGE_KEY = 'skein.queries.v1';
export const MAX_RECENT = 50;
export const MAX_SAVED = 200;
export const MAX_NAME_CHARS = 80;
const MAX_QUERY_CHARS = 4096;

export type SearchType = 'Latest' | 'Top';
export interface RecentQuery {
  query: string;
  type: SearchType;
  at_ms: number;
}
export interface SavedQuery {
  name: string;
  query: string;
  type: SearchType;
  saved_ms: number;
}

interface Stored {
  recent: RecentQuery[];
  saved: SavedQuery[];
}

function load(): Stored {
  try {
    const raw = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Stored> | null;
    const ok = (q: unknown): q is { query: string; type: SearchType } =>
      typeof q === 'object' && q !== null && typeof (q as RecentQuery).query === 'string' && ((q as RecentQuery).type === 'Latest' || (q as RecentQuery).type === 'Top');
    return {
      recent: (Array.isArray(raw?.recent) ? raw.recent : []).filter((q): q is RecentQuery => ok(q) && typeof q.at_ms === 'number').slice(0, MAX_RECENT),
      saved: (Array.isArray(raw?.saved) ? raw.saved : []).filter((q): q is SavedQuery => ok(q) && typeof q.name === 'string' && typeof q.saved_ms === 'number').slice(0, MAX_SAVED),
    };
  } catch {
    return { recent: [], saved: [] };
  }
}

function store(state: Stored): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Not kept, but in force for this session.
  }
}

interface QueryHistoryState extends Stored {
  record(query: string, type: SearchType, nowMs: number): void;
  /** Saves under `name`; the same name again replaces it. Returns the error to show, or null. */
  save(name: string, query: string, type: SearchType, nowMs: number): string | null;
  remove(name: string): void;
  clearRecent(): void;
}

export const useQueryHistory = create<QueryHistoryState>((set, get) => {
  const update = (next: Partial<Stored>) => {
    const state = { recent: next.recent ?? get().recent, saved: next.saved ?? get().saved };
    store(state);
    set(state);
  };
  return {
    ...load(),
    record(query, type, nowMs) {
      if (!query || query.length > MAX_QUERY_CHARS) return;
      const others = get().recent.filter((r) => r.query !== query || r.type !== type);
      update({ recent: [{ query, type, at_ms: nowMs }, ...others].slice(0, MAX_RECENT) });
    },
    save(name, query, type, nowMs) {
      const clean = name.trim();
      if (!clean) return 'Give the query a name.';
      if (clean.length > MAX_NAME_CHARS) return `A name has at most ${MAX_NAME_CHARS} characters.`;
      if (!query) return 'There is no query to save.';
      const others = get().saved.filter((s) => s.name !== clean);
      if (others.length >= MAX_SAVED) return `At most ${MAX_SAVED} queries can be saved: delete one first.`;
      update({ saved: [{ name: clean, query, type, saved_ms: nowMs }, ...others] });
      return null;
    },
    remove(name) {
      update({ saved: get().saved.filter((s) => s.name !== name) });
    },
    clearRecent() {
      update({ recent: [] });
    },
  };
});
