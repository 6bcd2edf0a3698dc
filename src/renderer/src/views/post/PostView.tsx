import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { ReplyTree, Tweet } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { RawJson } from '../../components/RawJson';
import { Empty, ErrorState, Loading } from '../../components/States';
import { UserCard } from '../../components/UserCard';
import { authorLabel, isUnknownAuthor } from '../../components/author-label';
import { href, navigate } from '../../router';
import { useUi } from '../../stores/ui';
import { useDocumentTitle } from '../../document-title';
import { fmtInt } from '../../format';
import { tweetColumns } from '../tweet-columns';
import { TweetCard } from './TweetCard';
import { Ancestors, QuotedPost, quotesHref, SelfThread } from './PostContextSections';
import { ReplyTreePicture } from './ReplyTreePicture';

/** Post: the post, its author, the reply tree level by level, the raw JSON; collect or search from here. */
export function PostView({ id }: { id: string }) {
  const post = useSkein('post.get', { id }, { enabled: id !== '', staleTime: Infinity });
  // After the post: through an upstream, post.get is what stores the post the context starts from.
  const context = useSkein('post.context', { id }, { enabled: post.isSuccess, staleTime: Infinity });
  const showRaw = useUi((s) => s.showRawJson);
  const setShowRaw = useUi((s) => s.setShowRawJson);
  useDocumentTitle(post.data ? `Post by ${authorLabel(post.data.tweet.user)}` : 'Post');
  if (post.error) return <div className="view"><PageHeader title="Post" /><ErrorState error={post.error} /></div>;
  if (post.isPending) return <div className="view"><PageHeader title="Post" /><Loading /></div>;
  const tweet = post.data.tweet;
  return (
    <div className="view post">
      <PageHeader
        title="Post"
        subtitle={`by ${authorLabel(tweet.user)}`}
        actions={
          <>
            <a className="button" href={href('/jobs', { new: 'replies', tweet_id: tweet.id_str })}>Collect replies</a>
            {isUnknownAuthor(tweet.user) ? null : (
              <a className="button subtle" href={href('/search', { q: `from:${tweet.user.screen_name}` })}>Search this author</a>
            )}
            <button type="button" className="subtle" aria-pressed={showRaw} onClick={() => setShowRaw(!showRaw)}>
              {showRaw ? 'Hide JSON' : 'Raw JSON'}
            </button>
          </>
        }
      />
      <div className="two-columns">
        <div className="main-column">
          {context.data ? <Ancestors context={context.data} /> : null}
          <TweetCard
            tweet={tweet}
            quoted={context.data ? <QuotedPost context={context.data} /> : undefined}
            counterLinks={context.data && context.data.quotes_in_corpus > 0 ? { quote_count: quotesHref(tweet.id_str) } : undefined}
            footer={
              context.data ? (
                <p className="muted small">
                  {context.data.quotes_in_corpus > 0 ? (
                    <a href={quotesHref(tweet.id_str)}>
                      {fmtInt(context.data.quotes_in_corpus)} {context.data.quotes_in_corpus === 1 ? 'post' : 'posts'} in the corpus quote this one
                    </a>
                  ) : (
                    'No post in the corpus quotes this one.'
                  )}
                </p>
              ) : null
            }
          />
          {context.data ? <SelfThread context={context.data} id={tweet.id_str} /> : null}
          {showRaw ? <RawJson json={post.data.raw_json} /> : null}
        </div>
        <aside className="side-column" aria-label="Author">
          <UserCard user={tweet.user} />
        </aside>
      </div>
      {/* The whole width: the reply tree's picture and the level tables need it more than the author's card. */}
      <Replies key={tweet.id_str} id={tweet.id_str} />
    </div>
  );
}

function Replies({ id }: { id: string }) {
  const tree = useSkein('post.replies', { id }, { staleTime: Infinity });
  // The level listed below; the picture's level labels and groups choose it too.
  const [depth, setDepth] = useState<number | null>(null);
  return (
    <section className="card" aria-labelledby="replies-title">
      <h2 id="replies-title">Replies</h2>
      {tree.error ? (
        <ErrorState error={tree.error} />
      ) : tree.isPending ? (
        <Loading />
      ) : (
        <>
          {/* After the list: through an upstream, post.replies is what stores the conversation the picture reads. */}
          {tree.data.levels.length ? <ReplyTreePicture id={id} onLevel={setDepth} /> : null}
          <ReplyLevels tree={tree.data} depth={depth} setDepth={setDepth} />
        </>
      )}
    </section>
  );
}

function ReplyLevels({ tree, depth, setDepth }: { tree: ReplyTree; depth: number | null; setDepth(depth: number): void }) {
  const columns = useMemo(() => tweetColumns({ withAuthor: true }) as ColumnDef<Tweet, unknown>[], []);
  if (tree.levels.length === 0) return <Empty title="No replies in the corpus" />;
  const level = tree.levels.find((l) => l.depth === depth) ?? tree.levels[0]!;
  return (
    <>
      <div className="tabs" role="tablist" aria-label="Reply levels">
        {tree.levels.map((l) => (
          <button
            key={l.depth}
            type="button"
            role="tab"
            aria-selected={l.depth === level.depth}
            onClick={() => setDepth(l.depth)}
          >
            {l.depth === 1 ? 'Direct replies' : `Level ${l.depth}`}{' '}
            <span className="count">{l.total > l.tweets.length ? `${fmtInt(l.tweets.length)} of ${fmtInt(l.total)}` : fmtInt(l.total)}</span>
          </button>
        ))}
      </div>
      <DataTable
        label={`Replies at level ${level.depth}`}
        tableKey="replies"
        data={level.tweets}
        columns={columns}
        getRowId={(t) => t.id_str}
        onOpen={(t) => navigate(`/post/${t.id_str}`)}
        height={360}
      />
      <ReplyTreeNote tree={tree} />
    </>
  );
}

/** What the tree leaves out, exactly, and how to collect it. */
function ReplyTreeNote({ tree }: { tree: ReplyTree }) {
  if (!tree.truncated) return null;
  const cut = tree.levels.filter((l) => l.total > l.tweets.length);
  const words = cut.map((l) => `${l.depth === 1 ? 'direct replies' : `level ${l.depth}`}: the newest ${fmtInt(l.tweets.length)} of ${fmtInt(l.total)}`);
  const conversation = `conversation_id:${tree.root_id}`;
  return (
    <p className="muted small" data-testid="reply-tree-note">
      {words.length ? `Shown: ${words.join('; ')}. ` : ''}
      {tree.more_levels ? 'The tree goes deeper than the 100 levels (or 200,000 replies) shown here. ' : ''}
      A reply job collects every direct and second-level reply; a search job for <code>{conversation}</code> collects the
      whole conversation.
    </p>
  );
}
