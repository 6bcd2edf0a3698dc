import { createColumnHelper } from '@tanstack/react-table';
import type { Tweet } from '../../../shared/contract';
import { authorLabel } from '../components/author-label';
import { fmtCompact, fmtDateTime, DATE_TIME_PX } from '../format';

const col = createColumnHelper<Tweet>();

/** The columns every list of posts shares (timeline, search, reply levels). */
export function tweetColumns({ withAuthor }: { withAuthor: boolean }) {
  return [
    col.accessor('tweet_created_at', {
      header: 'Posted',
      size: DATE_TIME_PX,
      cell: (c) => <time dateTime={c.getValue()}>{fmtDateTime(c.getValue())}</time>,
    }),
    ...(withAuthor
      ? [col.accessor((t) => authorLabel(t.user), { id: 'author', header: 'Author', size: 140, cell: (c) => <span className="truncate">{c.getValue()}</span> })]
      : []),
    col.accessor('full_text', {
      header: 'Text',
      size: 280,
      enableSorting: false,
      meta: { grow: true },
      cell: (c) => (
        <span className="truncate" title={c.getValue()}>
          {c.row.original.in_reply_to_status_id_str ? <span className="kind-tag reply">reply</span> : null}
          {c.row.original.is_quote_status ? <span className="kind-tag quote">quote</span> : null}
          {c.getValue()}
        </span>
      ),
    }),
    col.accessor('reply_count', { header: 'Replies', size: 80, meta: { numeric: true }, cell: (c) => fmtCompact(c.getValue()) }),
    col.accessor('retweet_count', { header: 'Reposts', size: 84, meta: { numeric: true }, cell: (c) => fmtCompact(c.getValue()) }),
    col.accessor('favorite_count', { header: 'Likes', size: 76, meta: { numeric: true }, cell: (c) => fmtCompact(c.getValue()) }),
    col.accessor('views_count', { header: 'Views', size: 80, meta: { numeric: true }, cell: (c) => fmtCompact(c.getValue()) }),
    // The exact 19-digit id, for pasting into a query or a script: hidden until shown in Columns
    // (every row's menu copies it too).
    col.accessor('id_str', { id: 'id', header: 'Id', size: 190, meta: { hidden: true }, cell: (c) => <span className="mono">{c.getValue()}</span> }),
  ];
}
