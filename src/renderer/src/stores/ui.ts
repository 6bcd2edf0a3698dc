import { create } from 'zustand';

// UI state only (what is open, what is typed, passing notices). Engine data lives in TanStack Query.
export interface Toast {
  id: number;
  text: string;
  tone: 'ok' | 'error' | 'info';
  /** A notice with a key replaces the one with the same key (an import's "Importing…" by its result). */
  key?: string;
}

export interface ToastOptions {
  key?: string;
  /** Stays until replaced (by its key) or dismissed: for work whose end is not known in advance. */
  sticky?: boolean;
}

interface UiState {
  toasts: Toast[];
  toast(text: string, tone?: Toast['tone'], options?: ToastOptions): void;
  dismiss(id: number): void;
  /** Post view: raw JSON panel open. */
  showRawJson: boolean;
  setShowRawJson(open: boolean): void;
  /** Settings: the user whose ledger and webhook are shown. */
  settingsUserId: number | null;
  setSettingsUserId(id: number | null): void;
  /** The sidebar shows icons only (the analyst's choice, kept on this machine). */
  sidebarCollapsed: boolean;
  setSidebarCollapsed(collapsed: boolean): void;
}

const SIDEBAR_KEY = 'skein.sidebarCollapsed';
const storedCollapsed = (): boolean => {
  try {
    return window.localStorage.getItem(SIDEBAR_KEY) === '1';
  } catch {
    return false;
  }
};
// At most this many notices at once, the oldest dropped: a burst of events (ten jobs ending)
// must not pile up a column of notices.
const MAX_TOASTS = 3;

let nextToast = 1;
// A notice stays 6 s: long enough to read two lines.
const TOAST_MS = 6_000;

export const useUi = create<UiState>((set) => ({
  toasts: [],
  toast(text, tone = 'info', options = {}) {
    const id = nextToast++;
    const { key, sticky } = options;
    set((s) => {
      const others = key === undefined ? s.toasts : s.toasts.filter((t) => t.key !== key);
      return { toasts: [...others.slice(-(MAX_TOASTS - 1)), { id, text, tone, ...(key === undefined ? {} : { key }) }] };
    });
    if (!sticky) setTimeout(() => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), TOAST_MS);
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  showRawJson: false,
  setShowRawJson: (open) => set({ showRawJson: open }),
  settingsUserId: null,
  setSettingsUserId: (id) => set({ settingsUserId: id }),
  sidebarCollapsed: storedCollapsed(),
  setSidebarCollapsed(collapsed) {
    try {
      window.localStorage.setItem(SIDEBAR_KEY, collapsed ? '1' : '0');
    } catch {
      // In force for this session.
    }
    set({ sidebarCollapsed: collapsed });
  },
}));
