import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { Tweet } from '../../../../shared/contract';
import { useSkein, useSkeinPages } from '../../api/hooks';
import { fmtInt } from '../../format';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/States';
import { href, navigate, useRoute } from '../../router';
import { clip, useDocumentTitle } from '../../document-title';
import { tweetColumns } from '../tweet-columns';
import { OPERATORS } from './operators';
import { localZoneName, useTimeZone } from '../../stores/time-zone';
import { useQueryHistory } from '../../stores/query-history';
import { QueryShelf, SaveQuery } from './QueryShelf';
import { QueryError } from './QueryError';

/** Search: the platform's operators over the corpus; syntax errors are underlined where they are. */
export function SearchView() {
  const { query } = useRoute();
  const q = query.get('q') ?? '';
  const type = query.get('type') === 'Top' ? 'Top' : 'Latest';
  useDocumentTitle(q ? `Search: ${clip(q)}` : 'Search');
  const [draft, setDraft] = useState(q);
  const [help, setHelp] = useState(false);
  const [shelf, setShelf] = useState(false);
  const record = useQueryHistory((s) => s.record);
  useEffect(() => {
    if (q) record(q, type, Date.now());
  }, [q, type, record]);
  const zone = useTimeZone((s) => s.zone);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setDraft(q), [q]);
  useEffect(() => input.current?.focus(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate('/search', { q: draft.trim(), type });
  };

  return (
    <div className="view search">
      <PageHeader
        title="Search"
        subtitle="The platform's search operators over the corpus on this machine."
        actions={
          <>
            <button type="button" className="subtle" aria-expanded={shelf} onClick={() => setShelf(!shelf)}>Saved and recent</button>
            <button type="button" className="subtle" aria-expanded={help} onClick={() => setHelp(!help)}>Operators</button>
          </>
        }
      />
      <form className="card search-form" onSubmit={submit} role="search">
        <div className="row-form">
          <label className="grow">
            <span className="sr-only">Query</span>
            <input
              ref={input}
              className="query-input"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder='e.g. #opendata from:ada_lv -filter:replies since:2026-01-01'
              aria-label="Query"
              spellCheck={false}
            />
          </label>
          <fieldset className="segmented" aria-label="Order">
            {(['Latest', 'Top'] as const).map((t) => (
              <label key={t} className={type === t ? 'on' : ''}>
                <input type="radio" name="type" value={t} checked={type === t} onChange={() => navigate('/search', { q, type: t })} />
                {t}
              </label>
            ))}
          </fieldset>
          <button type="submit">Search</button>
        </div>
        <div className="search-foot">
          <p className="muted small zone-note">
            <code>since:</code> and <code>until:</code> take UTC days; the dates below are shown in {zone === 'utc' ? 'UTC' : localZoneName()} (Settings &gt; Dates and times).
          </p>
          {q ? <SaveQuery key={`${type}:${q}`} query={q} type={type} /> : null}
        </div>
        {shelf ? <QueryShelf /> : null}
        {help ? (
          <ul className="operator-help" aria-label="Search operators">
            {OPERATORS.map((o) => (
              <li key={o.op}>
                <button type="button" className="link" onClick={() => setDraft((d) => (d ? `${d} ${o.example}` : o.example))}>
                  <code>{o.example}</code>
                </button>
                <span className="muted">{o.meaning}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </form>
      {q ? <Results q={q} type={type} /> : <Empty title="Type a query">Press Enter to search. “Operators” lists what you can use.</Empty>}
    </div>
  );
}

function Results({ q, type }: { q: string; type: 'Latest' | 'Top' }) {
  const pages = useSkeinPages('search.page', { query: q, type }, true);
  // Counted in the corpus before collecting: what "Collect all" will hold and fetch.
  const matches = useSkein('search.count', { query: q }, { retry: false });
  // With an upstream the corpus count is a floor: said so, and the job's maximum is left to the analyst.
  const floor = matches.data ? matches.data.capped || matches.data.upstream : false;
  const total = matches.data ? `${fmtInt(matches.data.count)}${floor ? '+' : ''}` : null;
  const prefill = matches.data && matches.data.count > 0 && !floor ? { max_count: String(matches.data.count) } : {};
  const rows = useMemo(() => pages.data?.pages.flatMap((p) => p.tweets) ?? [], [pages.data]);
  const columns = useMemo(() => tweetColumns({ withAuthor: true }) as ColumnDef<Tweet, unknown>[], []);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const onEnd = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  if (pages.error && rows.length === 0) {
    return pages.error.position ? <QueryError q={q} error={pages.error} /> : <ErrorState error={pages.error} />;
  }
  if (pages.isPending) return <Loading lines={4} />;
  return (
    <>
      <DataTable
        label="Search results"
        tableKey="search results"
        data={rows}
        columns={columns}
        getRowId={(t) => t.id_str}
        onOpen={(t) => navigate(`/post/${t.id_str}`)}
        onEndReached={onEnd}
        empty="No post matches this query."
        footer={
          <span data-testid="search-status">
            <span data-testid="search-count" title={matches.data?.upstream ? 'Counted in your corpus; the upstream may hold more.' : undefined}>
              {total === null ? 'counting matches…' : `${total} ${matches.data?.count === 1 && !floor ? 'post matches' : 'posts match'}${matches.data?.upstream ? ' in your corpus' : ''}`}
            </span>{' '}
            ·{' '}
            {fmtInt(rows.length)} shown · {isFetchingNextPage ? 'loading more…' : hasNextPage ? 'scroll for more' : 'all results shown'} ·{' '}
            <a href={href('/jobs', { new: 'search', query: q, type, ...prefill })}>
              Collect all{total === null || floor ? '' : ` ${total}`} into a file
            </a> ·{' '}
            <a href={href('/overview', { q })} data-testid="search-overview">Overview</a>
          </span>
        }
      />
    </>
  );
}

/** The query with the offending part underlined, and the parser's words. */
