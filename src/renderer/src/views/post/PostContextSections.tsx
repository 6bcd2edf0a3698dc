import { useState } from 'react';
import type { PostContext, Tweet } from '../../../../shared/contract';
import { authorLabel } from '../../components/author-label';
import { fmtInt } from '../../format';
import { href } from '../../router';
import { CompactPost } from './CompactPost';

// A long chain shows its root and the posts nearest to the post, the middle behind one button, so
// the post itself stays near the top of the page.
const SHOWN_AT_TOP = 1;
const SHOWN_AT_BOTTOM = 2;

/**
 * The replies above the post, root first; where the chain leaves the corpus, a link that fetches
 * the rest. The author's own posts just above it are left to the thread (SelfThread), which shows
 * them in order with the post.
 */
export function Ancestors({ context }: { context: PostContext }) {
  const { missing_parent_id: missing, ancestors_truncated: truncated } = context;
  const inThread = new Set(context.thread.map((t) => t.id_str));
  const ancestors = context.ancestors.filter((t) => !inThread.has(t.id_str));
  const [expanded, setExpanded] = useState(false);
  if (ancestors.length === 0 && !missing) return null;
  const folded = !expanded && ancestors.length > SHOWN_AT_TOP + SHOWN_AT_BOTTOM + 1;
  const item = (t: Tweet) => (
    <li key={t.id_str}>
      <CompactPost tweet={t} />
    </li>
  );
  return (
    <section className="card context-chain" aria-label="In reply to">
      <h2 className="small-heading">
        In reply to {ancestors.length > 0 ? `(${fmtInt(ancestors.length)} ${ancestors.length === 1 ? 'post' : 'posts'} above${inThread.size > 0 ? ' the thread' : ''})` : ''}
      </h2>
      {missing ? (
        <p className="muted small" role="note">
          {ancestors.length > 0 ? 'Above these, the' : 'The'} post replied to is not in the corpus:{' '}
          <a href={href(`/post/${missing}`)}>open post {missing}</a> (fetched through the upstream when one is set in Settings &gt; Sources).
        </p>
      ) : truncated ? (
        <p className="muted small" role="note">
          More posts are above these: open the first one to go on up.
        </p>
      ) : null}
      <ol className="context-list">
        {folded ? (
          <>
            {ancestors.slice(0, SHOWN_AT_TOP).map(item)}
            <li>
              <button type="button" className="subtle small" onClick={() => setExpanded(true)}>
                Show {fmtInt(ancestors.length - SHOWN_AT_TOP - SHOWN_AT_BOTTOM)} more posts between
              </button>
            </li>
            {ancestors.slice(-SHOWN_AT_BOTTOM).map(item)}
          </>
        ) : (
          ancestors.map(item)
        )}
      </ol>
    </section>
  );
}

/** The author's self-thread as one thread, the post marked in it. */
export function SelfThread({ context, id }: { context: PostContext; id: string }) {
  const { thread } = context;
  if (thread.length < 2) return null;
  const at = thread.findIndex((t) => t.id_str === id) + 1;
  return (
    <section className="card" aria-label="Thread">
      <h2 className="small-heading">
        Thread by {authorLabel(thread[0]!.user)}: {fmtInt(thread.length)} posts{at > 0 ? `, this is ${fmtInt(at)}` : ''}
      </h2>
      <ol className="context-list">
        {thread.map((t) => (
          <li key={t.id_str}>
            <CompactPost tweet={t} current={t.id_str === id} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The quoted post inside the quoting one, or a link where the corpus lacks it. */
export function QuotedPost({ context }: { context: PostContext }) {
  if (context.quoted) {
    return (
      <div className="quoted-post">
        <CompactPost tweet={context.quoted} label="Quoted post" />
      </div>
    );
  }
  if (context.quoted_missing_id) {
    return (
      <p className="context small" role="note">
        Quotes a post the corpus does not hold: <a href={href(`/post/${context.quoted_missing_id}`)}>open post {context.quoted_missing_id}</a>
      </p>
    );
  }
  return null;
}

/** Where the post's quotes are: the search that lists the stored ones. */
export function quotesHref(id: string): string {
  return href('/search', { q: `quoted_tweet_id:${id}` });
}
