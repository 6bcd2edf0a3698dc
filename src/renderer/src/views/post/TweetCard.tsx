import type { ReactNode } from 'react';
import type { Tweet } from '../../../../shared/contract';
import { Avatar } from '../../components/Avatar';
import { Counters } from '../../components/Counters';
import { TweetText } from '../../components/TweetText';
import { UserName } from '../../components/UserCard';
import { fmtDateTime } from '../../format';
import { href } from '../../router';

/**
 * One post as a reader sees it: author, text with entities, context links, counters. `quoted`
 * replaces the "Quotes post N" link with the quoted post itself; `counterLinks` makes counters links.
 */
export function TweetCard({ tweet, quoted, counterLinks, footer }: { tweet: Tweet; quoted?: ReactNode; counterLinks?: Partial<Record<keyof Tweet, string>>; footer?: ReactNode }) {
  const source = /<a[^>]*>([^<]*)<\/a>/.exec(tweet.source)?.[1] ?? tweet.source;
  return (
    <article className="card tweet-card" aria-label="Post">
      <header className="tweet-head">
        <Avatar name={tweet.user.name || tweet.user.screen_name} url={tweet.user.profile_image_url_https} size={48} />
        <div>
          <a href={href('/timeline', { user: tweet.user.id_str })}><UserName user={tweet.user} /></a>
          <div className="muted small">
            <time dateTime={tweet.tweet_created_at}>{fmtDateTime(tweet.tweet_created_at)}</time> · {source} · lang {tweet.lang} · id{' '}
            <code>{tweet.id_str}</code>
          </div>
        </div>
      </header>
      {tweet.in_reply_to_status_id_str ? (
        <p className="context small">
          Replying to <a href={href(`/post/${tweet.in_reply_to_status_id_str}`)}>@{tweet.in_reply_to_screen_name ?? 'a post'}</a>
        </p>
      ) : null}
      <TweetText text={tweet.full_text} entities={tweet.entities} />
      {quoted ?? (tweet.quoted_status_id_str ? (
        <p className="context small">
          Quotes <a href={href(`/post/${tweet.quoted_status_id_str}`)}>post {tweet.quoted_status_id_str}</a>
        </p>
      ) : null)}
      {tweet.wallet_address ? <p className="small">Wallet-like string: <code>{tweet.wallet_address}</code></p> : null}
      <Counters tweet={tweet} links={counterLinks} />
      {footer}
    </article>
  );
}
