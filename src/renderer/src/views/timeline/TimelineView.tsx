import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { Tweet } from '../../../../shared/contract';
import { useSkein, useSkeinPages } from '../../api/hooks';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/States';
import { UserCard } from '../../components/UserCard';
import { authorLabel } from '../../components/author-label';
import { href, navigate, useRoute } from '../../router';
import { useDocumentTitle } from '../../document-title';
import { fmtInt } from '../../format';
import { tweetColumns } from '../tweet-columns';
import { UserActivity, UserTopPosts } from './UserActivity';

type Kind = 'tweets' | 'tweets-and-replies';

/** Timeline: a user by @name or id, posts or posts and replies, pages of 20 loaded on scroll. */
export function TimelineView() {
  const { query } = useRoute();
  const user = query.get('user') ?? '';
  const kind: Kind = query.get('kind') === 'tweets-and-replies' ? 'tweets-and-replies' : 'tweets';
  const [draft, setDraft] = useState(user);
  useEffect(() => setDraft(user), [user]);
  // The same query as UserTimeline's (one request): the title names the user once they are known.
  const who = useSkein('users.lookup', { user }, { enabled: user !== '', staleTime: Infinity }).data?.screen_name;
  useDocumentTitle(who ? `@${who} · Timeline` : 'Timeline');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate('/timeline', { user: draft.trim(), kind });
  };

  return (
    <div className="view timeline">
      <PageHeader title="Timeline" subtitle="A user's posts, newest first, 20 per page as the API serves them." />
      <form className="row-form card" onSubmit={submit} role="search">
        <label className="grow">
          <span className="label">User</span>
          <input value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="@screen_name or numeric id" aria-label="User" />
        </label>
        <fieldset className="segmented" aria-label="Timeline kind">
          {(['tweets', 'tweets-and-replies'] as const).map((k) => (
            <label key={k} className={kind === k ? 'on' : ''}>
              <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => navigate('/timeline', { user, kind: k })} />
              {k === 'tweets' ? 'Posts' : 'Posts and replies'}
            </label>
          ))}
        </fieldset>
        <button type="submit">Show</button>
      </form>
      {user ? <UserTimeline user={user} kind={kind} /> : <Empty title="Choose a user">Type a screen name (with or without @) or a numeric id.</Empty>}
    </div>
  );
}

function UserTimeline({ user, kind }: { user: string; kind: Kind }) {
  const lookup = useSkein('users.lookup', { user }, { staleTime: Infinity });
  if (lookup.error) return <ErrorState error={lookup.error} />;
  if (lookup.isPending) return <Loading />;
  // A protected account's posts are not public: its timeline answers 403, and so do its pictures.
  const open = !lookup.data.protected;
  return (
    <>
      <div className={open ? 'user-head' : undefined}>
        <UserCard user={lookup.data} />
        {open ? <UserActivity user={lookup.data} userParam={user} /> : null}
      </div>
      <p className="timeline-tools">
        <ExportTimeline userId={lookup.data.id_str} kind={kind} />
      </p>
      {open ? <UserTopPosts user={lookup.data} /> : null}
      <TimelineTable userId={lookup.data.id_str} author={authorLabel(lookup.data)} kind={kind} />
    </>
  );
}

/**
 * "Export timeline to a file…" (issue 15): the job form with kind timeline, this user and timeline,
 * and as max_count what a job without one would hold: the posts of this timeline in the corpus
 * (through an upstream, the user's statuses_count if more). The form then shows that hold.
 */
function ExportTimeline({ userId, kind }: { userId: string; kind: Kind }) {
  const estimate = useSkein('jobs.estimate', { kind: 'timeline', user_id: userId, timeline: kind }, { staleTime: 0, retry: false });
  const posts = estimate.data?.hold;
  return (
    <>
      <a
        className="button"
        data-testid="export-timeline"
        href={href('/jobs', { new: 'timeline', user_id: userId, timeline: kind, max_count: posts ? String(posts) : undefined })}
      >
        Export timeline to a file…
      </a>
      {posts === undefined ? null : (
        <span className="muted small" data-testid="export-timeline-count">
          {' '}
          {/* Through an upstream the hold is the user's statuses_count: a ceiling, not a count. */}
          {estimate.data?.upstream ? `up to ${fmtInt(posts)}` : fmtInt(posts)} {posts === 1 ? 'post' : 'posts'}
          {/* Named by tab: the Posts tab leaves replies out, so its count is below the activity card's. */}
          {kind === 'tweets' ? ' without replies' : ' and replies'}
          {estimate.data?.upstream ? '' : ' in the corpus'}
        </span>
      )}
    </>
  );
}

function TimelineTable({ userId, author, kind }: { userId: string; author: string; kind: Kind }) {
  const pages = useSkeinPages('timeline.page', { user_id: userId, kind }, true);
  const rows = useMemo(() => pages.data?.pages.flatMap((p) => p.tweets) ?? [], [pages.data]);
  const columns = useMemo(() => tweetColumns({ withAuthor: false }) as ColumnDef<Tweet, unknown>[], []);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const onEnd = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (pages.error && rows.length === 0) return <ErrorState error={pages.error} />;
  const pageCount = pages.data?.pages.length ?? 0;
  return (
    <DataTable
      label={`Posts of ${author}`}
      tableKey="posts"
      data={rows}
      columns={columns}
      getRowId={(t) => t.id_str}
      onOpen={(t) => navigate(`/post/${t.id_str}`)}
      onEndReached={onEnd}
      empty={pages.isPending ? <Loading lines={4} /> : 'This user has no posts of this kind in the corpus.'}
      footer={
        <span data-testid="timeline-status">
          {rows.length} posts · {pageCount} {pageCount === 1 ? 'page' : 'pages'} loaded ·{' '}
          {pages.error ? `error: ${pages.error.message}` : isFetchingNextPage ? 'loading more…' : hasNextPage ? 'scroll for more' : 'end of timeline'}
        </span>
      }
    />
  );
}
