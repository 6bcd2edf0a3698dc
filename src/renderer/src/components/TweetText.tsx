import type { ReactNode } from 'react';
import type { Entities } from '../../../shared/contract';
import { href } from '../router';

interface Span {
  start: number;
  end: number;
  node: (text: string, key: number) => ReactNode;
}

/**
 * A post's text with its entities linked: @mentions open the user's timeline, #hashtags and
 * $cashtags run a search, urls open in the OS browser (desktop) or a new tab. The platform's
 * indices count code points; a span whose text does not match its entity is left as plain text
 * rather than linked wrongly.
 */
export function TweetText({ text, entities }: { text: string; entities: Entities }) {
  const chars = Array.from(text);
  const spans: Span[] = [];
  const at = (indices: unknown): [number, number] | null =>
    Array.isArray(indices) && typeof indices[0] === 'number' && typeof indices[1] === 'number' && indices[0] < indices[1] && indices[1] <= chars.length
      ? [indices[0], indices[1]]
      : null;
  const slice = (r: [number, number]) => chars.slice(r[0], r[1]).join('');

  for (const m of entities.user_mentions ?? []) {
    const r = at(m.indices);
    if (r && slice(r).toLowerCase() === `@${m.screen_name}`.toLowerCase()) {
      spans.push({ start: r[0], end: r[1], node: (t, k) => <a key={k} className="entity mention" href={href('/timeline', { user: `@${m.screen_name}` })}>{t}</a> });
    }
  }
  for (const h of entities.hashtags ?? []) {
    const r = at(h.indices);
    if (r && /^[#＃]/.test(slice(r))) {
      spans.push({ start: r[0], end: r[1], node: (t, k) => <a key={k} className="entity hashtag" href={href('/search', { q: t })}>{t}</a> });
    }
  }
  for (const s of entities.symbols ?? []) {
    const r = at(s.indices);
    if (r && slice(r).startsWith('$')) {
      spans.push({ start: r[0], end: r[1], node: (t, k) => <a key={k} className="entity cashtag" href={href('/search', { q: t })}>{t}</a> });
    }
  }
  for (const u of entities.urls ?? []) {
    const r = at(u.indices);
    if (r && slice(r) === u.url) {
      spans.push({
        start: r[0],
        end: r[1],
        node: (_t, k) => (
          <a key={k} className="entity url" href={u.expanded_url} target="_blank" rel="noopener noreferrer" title={u.expanded_url}>
            {u.display_url}
          </a>
        ),
      });
    }
  }
  spans.sort((a, b) => a.start - b.start);
  const out: ReactNode[] = [];
  let pos = 0;
  spans.forEach((span, i) => {
    if (span.start < pos) return; // overlapping entities: keep the first
    if (span.start > pos) out.push(chars.slice(pos, span.start).join(''));
    out.push(span.node(chars.slice(span.start, span.end).join(''), i));
    pos = span.end;
  });
  if (pos < chars.length) out.push(chars.slice(pos).join(''));
  return <p className="tweet-text">{out}</p>;
}
