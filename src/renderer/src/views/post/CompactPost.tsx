import type { Tweet } from '../../../../shared/contract';
import { authorLabel } from '../../components/author-label';
import { fmtDateTime } from '../../format';
import { href } from '../../router';

/** A post in a list of context (ancestors, a self-thread, a quoted post): author, time, its text, a link to its page. */
export function CompactPost({ tweet, current = false, label }: { tweet: Tweet; current?: boolean; label?: string }) {
  return (
    <article className={`compact-post ${current ? 'current' : ''}`} aria-label={label ?? `Post by ${authorLabel(tweet.user)}`} aria-current={current ? 'true' : undefined}>
      <div className="muted small">
        <strong className="compact-author">{authorLabel(tweet.user)}</strong> · <time dateTime={tweet.tweet_created_at}>{fmtDateTime(tweet.tweet_created_at)}</time>
        {current ? ' · this post' : null}
      </div>
      <p className="compact-text">{tweet.full_text}</p>
      {current ? null : (
        <a className="small" href={href(`/post/${tweet.id_str}`)} title={`Post ${tweet.id_str}`}>
          Open
        </a>
      )}
    </article>
  );
}
