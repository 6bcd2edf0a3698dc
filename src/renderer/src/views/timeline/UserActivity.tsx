import { useCallback } from 'react';
import type { TopPost, TweetUser } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { ErrorState, Loading } from '../../components/States';
import { fmtDate, fmtInt } from '../../format';
import { href, navigate } from '../../router';
import { useTimeZone } from '../../stores/time-zone';
import { PostsChart, useBucketFormat } from '../overview/PostsChart';

// A user's page (issue 16): their activity over time, the Overview's chart of the same engine
// counts ('overview.get' for the user, with the arguments the full Overview sends, so both share
// one cached answer), and their most replied-to and most liked posts ('user.topPosts').

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function UserActivity({ user, userParam }: { user: TweetUser; userParam: string }) {
  // As the Overview opens: the app's zone, a fixed offset (today's), the bucket chosen from the span.
  const utc = useTimeZone((s) => s.zone) === 'utc';
  const offset = utc ? 0 : -new Date().getTimezoneOffset();
  const o = useSkein('overview.get', { user_id: user.id_str, utc_offset_minutes: offset });
  const fmtX = useBucketFormat(o.data?.bucket, utc);
  const onCanvas = useCallback(() => undefined, []);
  return (
    <section className="card user-activity" aria-labelledby="activity-title" data-testid="user-activity">
      <div className="overview-toolbar">
        <h2 id="activity-title" className="small-heading">Activity</h2>
        {o.data ? (
          <span className="muted small" data-testid="activity-figures">
            {fmtInt(o.data.posts)} posts in the corpus · {pct(o.data.reply_share)} replies · {pct(o.data.quote_share)} quotes
          </span>
        ) : null}
        <span className="spacer" />
        <a href={href('/overview', { user: userParam })} data-testid="timeline-overview">Full overview</a>
      </div>
      {o.error ? (
        <ErrorState error={o.error} />
      ) : o.isPending ? (
        <Loading lines={3} />
      ) : o.data.posts === 0 ? (
        <p className="muted">No posts of this user in the corpus.</p>
      ) : (
        <PostsChart overview={o.data} utc={utc} fmtX={fmtX} onCanvas={onCanvas} height={170} pointsUpTo={40} />
      )}
    </section>
  );
}

export function UserTopPosts({ user }: { user: TweetUser }) {
  const top = useSkein('user.topPosts', { user_id: user.id_str });
  if (top.error) return <ErrorState error={top.error} />;
  if (top.isPending) return <Loading lines={3} />;
  return (
    <div className="user-top-posts">
      <TopPosts title="Most replied-to" testId="top-replied" posts={top.data.most_replied} count={(p) => p.tweet.reply_count} unit="replies" inCorpus />
      <TopPosts title="Most liked" testId="top-liked" posts={top.data.most_liked} count={(p) => p.tweet.favorite_count} unit="likes" />
    </div>
  );
}

function TopPosts({ title, testId, posts, count, unit, inCorpus = false }: { title: string; testId: string; posts: TopPost[]; count: (p: TopPost) => number; unit: string; inCorpus?: boolean }) {
  return (
    <section className="card top-posts" aria-label={title} data-testid={testId}>
      <h2 className="small-heading">{title}</h2>
      {posts.length === 0 ? <p className="muted small">No post with {unit} in the corpus.</p> : null}
      <ol>
        {posts.map((p) => (
          <li key={p.tweet.id_str}>
            <button type="button" className="link top-post-text" title={p.tweet.full_text} onClick={() => navigate(`/post/${p.tweet.id_str}`)}>
              {p.tweet.full_text}
            </button>
            <span className="muted small top-post-meta">
              {fmtDate(p.tweet.tweet_created_at)} ·{' '}
              <strong className="top-post-count">{fmtInt(count(p))}</strong> {unit}
              {inCorpus ? <span title="Direct replies to it stored in this corpus"> ({fmtInt(p.replies_in_corpus)} in the corpus)</span> : null}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
