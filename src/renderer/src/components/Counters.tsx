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

export function Counters({ tweet }: { tweet: Tweet }) {
  return (
    <dl className="figures inline counters">
      {COUNTERS.map(([field, label]) => (
        <div key={field}>
          <dt>{label}</dt>
          <dd>{fmtInt(tweet[field] as number)}</dd>
        </div>
      ))}
    </dl>
  );
}
