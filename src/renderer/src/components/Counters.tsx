import type { Tweet } from '../../../shared/contract';
import { fmtInt } from '../format';

const COUNTERS: [keyof Tweet, string][] = [
  ['reply_count', 'Replies'],
  ['retweet_count', 'Reposts'],
  ['quote_count', 'Quotes'],
  ['favorite_count', 'Likes'],
  ['bookmark_count', 'Bookmarks'],
  ['views_count', 'Views'],
];

/** The post's counters as the platform reported them; `links` makes some of them links (Quotes: the stored quotes). */
export function Counters({ tweet, links }: { tweet: Tweet; links?: Partial<Record<keyof Tweet, string>> }) {
  return (
    <dl className="figures inline counters">
      {COUNTERS.map(([field, label]) => (
        <div key={field}>
          <dt>{label}</dt>
          <dd>{links?.[field] ? <a href={links[field]}>{fmtInt(tweet[field] as number)}</a> : fmtInt(tweet[field] as number)}</dd>
        </div>
      ))}
    </dl>
  );
}
