import { useEffect } from 'react';

/**
 * Names the view and what it shows in the tab and the desktop window's title (Electron takes the
 * page's title): "@ada · Timeline — Skein". Each view calls it once, before any early return; `what`
 * may change as the view's data arrives.
 */
export function useDocumentTitle(what: string): void {
  useEffect(() => {
    document.title = documentTitle(what);
  }, [what]);
}

export function documentTitle(what: string): string {
  const text = what.replace(/\s+/g, ' ').trim();
  return text ? `${text} — Skein` : 'Skein';
}

/** Long free text (an article's title, a query) is cut so the view's name stays visible in a tab. */
export function clip(text: string, max = 60): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}
