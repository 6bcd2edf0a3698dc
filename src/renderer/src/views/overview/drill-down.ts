// A top-list entry as the search that finds its posts: the entry's operator, ANDed with the
// overview's own query (in parentheses when it has an OR, which binds looser than AND) or with
// `from:` the user whose posts it describes.

export type ListKind = 'hashtags' | 'mentions' | 'domains' | 'languages' | 'clients';

/** The search term of an entry; null where the language has no operator for it (clients). */
export function termOf(kind: ListKind, value: string): string | null {
  switch (kind) {
    case 'hashtags':
      return `#${value}`;
    case 'mentions':
      return `@${value}`;
    case 'domains':
      return `url:${value}`;
    case 'languages':
      return `lang:${value}`;
    case 'clients':
      return null;
  }
}

export function drillDown(base: { query: string } | { screenName: string | null }, term: string): string {
  if ('query' in base) return `${/\bOR\b/.test(base.query) ? `(${base.query})` : base.query} ${term}`;
  return base.screenName ? `from:${base.screenName} ${term}` : term;
}
