import { type RefObject, useLayoutEffect, useSyncExternalStore } from 'react';

// While the server is away, a view with several parts (Exports: the unfinished files, the files,
// the retention setting) would say "Waiting for Skein" once per part under the one banner. Each
// waiting part registers its element here, and only the first in the page's order says it; the
// others wait as skeletons. The order is the document's, not the order the parts' requests failed.

const waiting = new Set<Element>();
let first: Element | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function elect(): void {
  let earliest: Element | null = null;
  for (const el of waiting) if (!earliest || earliest.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) earliest = el;
  if (earliest === first) return;
  first = earliest;
  listeners.forEach((l) => l());
}

/** True while the element is the first on the page that waits for the server. */
export function useFirstWaiting(ref: RefObject<Element | null>): boolean {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    waiting.add(el);
    elect();
    return () => {
      waiting.delete(el);
      elect();
    };
  }, [ref]);
  return useSyncExternalStore(subscribe, () => first !== null && first === ref.current);
}
