import { type FormEvent, useEffect, useState } from 'react';
import type { CsvDialect, GexfSlice, JobKind, JobParams, OutputFormat } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { ErrorState } from '../../components/States';
import { fmtInt } from '../../format';
import { useRoute } from '../../router';
import { CSV_DIALECT_LABELS, useCsvDialect } from '../../stores/csv-dialect';
import { QueryError } from '../search/QueryError';
import { useUi } from '../../stores/ui';

const ID = /^\d{1,19}$/;
const MAX_NAME_CHARS = 80;

/** One line on what each file format is for, under the format's choice. */
const FORMAT_HINTS: Record<OutputFormat, string> = {
  json: 'output_format=json: every field of every post, as the API gives it.',
  csv: 'output_format=csv: one row per post, for spreadsheets and scripts.',
  xlsx: 'output_format=xlsx: opens in Excel with dates, filters and widths set.',
  parquet: 'output_format=parquet: the CSV columns, typed (ids as text, times in UTC): for pandas, Polars, R and DuckDB.',
  gexf: "output_format=gexf: the posts' accounts as a network (replies, mentions, quotes, retweets) for Gephi.",
};

type TimelineKind = 'tweets' | 'tweets-and-replies';
const KINDS: readonly JobKind[] = ['replies', 'search', 'timeline'];
const kindOf = (raw: string | null): JobKind | null => KINDS.find((k) => k === raw) ?? null;
const timelineOf = (raw: string | null): TimelineKind => (raw === 'tweets-and-replies' ? 'tweets-and-replies' : 'tweets');

/**
 * Every job kind with its parameters (spec 4.6 / 4.7, and our timeline job), and the credit hold
 * shown before starting. Timeline > "Export timeline to a file…" opens it with kind timeline, the
 * user's id and the timeline's post count as max_count.
 */
export function JobForm() {
  const { query } = useRoute();
  const [kind, setKind] = useState<JobKind>(kindOf(query.get('new')) ?? 'replies');
  const [tweetId, setTweetId] = useState(query.get('tweet_id') ?? '');
  const [userId, setUserId] = useState(query.get('user_id') ?? '');
  const [timeline, setTimeline] = useState<TimelineKind>(timelineOf(query.get('timeline')));
  const [q, setQ] = useState(query.get('query') ?? '');
  const [type, setType] = useState<'Latest' | 'Top'>(query.get('type') === 'Top' ? 'Top' : 'Latest');
  const [sinceId, setSinceId] = useState('');
  const [maxId, setMaxId] = useState('');
  // "Collect all N into a file" from Search sends the count of matches as max_count (and so the hold).
  const [maxCount, setMaxCount] = useState(/^\d+$/.test(query.get('max_count') ?? '') ? query.get('max_count')! : '');
  const [format, setFormat] = useState<OutputFormat>('json');
  const [compress, setCompress] = useState(false);
  // The engine trims and checks it again (1 to 80 characters, no control characters): a 422 otherwise.
  const [name, setName] = useState('');
  const jobName = name.trim() ? { name: name.trim() } : {};
  // Starts with Settings > CSV files; sent only with csv (the API refuses it with another format).
  const [dialect, setDialect] = useState<CsvDialect>(useCsvDialect.getState().dialect);
  const csvDialect = format === 'csv' ? { csv_dialect: dialect } : {};
  // Sent only with gexf, and only when sliced (the API refuses it with another format).
  const [slice, setSlice] = useState<GexfSlice | 'static'>('static');
  const gexfDynamic = format === 'gexf' && slice !== 'static' ? { gexf_dynamic: slice } : {};
  const toast = useUi((s) => s.toast);
  useEffect(() => {
    const asked = kindOf(query.get('new'));
    if (asked) setKind(asked);
    if (query.get('tweet_id')) setTweetId(query.get('tweet_id')!);
    if (query.get('user_id')) setUserId(query.get('user_id')!);
    if (query.get('timeline')) setTimeline(timelineOf(query.get('timeline')));
    if (query.get('query')) setQ(query.get('query')!);
    if (/^\d+$/.test(query.get('max_count') ?? '')) setMaxCount(query.get('max_count')!);
  }, [query]);

  // What is missing is a prompt, not an error: nothing is red before the analyst typed.
  const missing =
    kind === 'replies'
      ? tweetId.trim() === '' ? 'Give the id of the post whose replies to collect.' : null
      : kind === 'timeline'
        ? userId.trim() === '' ? 'Give the numeric id of the user whose timeline to collect (Timeline shows it).' : null
        : q.trim() === '' ? 'Type a query.' : null;
  const problems: string[] = [];
  if (kind === 'replies' && tweetId.trim() !== '' && !ID.test(tweetId.trim())) problems.push('The post id must be a number.');
  if (kind === 'timeline' && userId.trim() !== '' && !ID.test(userId.trim())) problems.push('The user id must be a number (a timeline job takes the id, not the @name).');
  if (kind !== 'timeline' && sinceId.trim() && !ID.test(sinceId.trim())) problems.push('since_id must be a number.');
  if (kind === 'search' && maxId.trim() && !ID.test(maxId.trim())) problems.push('max_id must be a number.');
  if (maxCount.trim() && !/^\d+$/.test(maxCount.trim())) problems.push('max_count must be a whole number.');
  if ([...name.trim()].length > MAX_NAME_CHARS) problems.push(`The name has ${[...name.trim()].length} characters; at most ${MAX_NAME_CHARS}.`);

  const params: JobParams =
    kind === 'timeline'
      ? {
          kind,
          user_id: userId.trim(),
          timeline,
          ...(maxCount.trim() ? { max_count: Number(maxCount) } : {}),
          compress,
          output_format: format,
          ...csvDialect,
          ...gexfDynamic,
          ...jobName,
        }
      : kind === 'replies'
      ? {
          kind,
          tweet_id: tweetId.trim(),
          ...(sinceId.trim() ? { since_id: sinceId.trim() } : {}),
          ...(maxCount.trim() ? { max_count: Number(maxCount) } : {}),
          compress,
          output_format: format,
          ...csvDialect,
          ...gexfDynamic,
          ...jobName,
        }
      : {
          kind,
          query: q.trim(),
          type,
          ...(sinceId.trim() ? { since_id: sinceId.trim() } : {}),
          ...(maxId.trim() ? { max_id: maxId.trim() } : {}),
          ...(maxCount.trim() ? { max_count: Number(maxCount) } : {}),
          compress,
          output_format: format,
          ...csvDialect,
          ...gexfDynamic,
          ...jobName,
        };
  const estimate = useSkein('jobs.estimate', params, { enabled: problems.length === 0 && missing === null, staleTime: 0, retry: false });
  // The figure "N available" must follow the balance: a job that charges, a grant elsewhere.
  const balanceSeen = useSkein('users.list', undefined);
  useEffect(() => {
    if (estimate.isSuccess) void estimate.refetch();
  }, [balanceSeen.dataUpdatedAt]);
  // A query the engine refuses is shown marked, as on Search, and stops Start.
  const queryError = kind === 'search' && estimate.error?.position ? estimate.error : null;
  // Over the threshold set in Settings > Sources, a walk through the upstream starts only once confirmed.
  const [confirmed, setConfirmed] = useState(false);
  const upstream = estimate.data?.upstream;
  const mustConfirm = upstream?.confirm === true && !confirmed;
  const create = useSkeinMutation('jobs.create', ['jobs.list', 'credits.ledger', 'users.list']);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problems.length || missing) return;
    create.mutate({ ...params, ...(upstream?.confirm ? { confirm_upstream: confirmed } : {}) }, { onSuccess: (r) => toast(`Job ${r.job_id} started.`, 'ok') });
  };

  return (
    <form className="card job-form" onSubmit={submit} aria-labelledby="new-job-title">
      <h2 id="new-job-title">New collection</h2>
      <div className="tabs" role="tablist" aria-label="Job kind">
        <button type="button" role="tab" aria-selected={kind === 'replies'} onClick={() => setKind('replies')}>Replies to a post</button>
        <button type="button" role="tab" aria-selected={kind === 'search'} onClick={() => setKind('search')}>Search results</button>
        <button type="button" role="tab" aria-selected={kind === 'timeline'} onClick={() => setKind('timeline')}>User timeline</button>
      </div>
      <div className="form-grid">
        {kind === 'timeline' ? (
          <>
            <Field label="User id" hint="user_id: the numeric id of the user whose posts are collected, newest first.">
              <input value={userId} onChange={(e) => setUserId(e.target.value)} inputMode="numeric" placeholder="9100000000000000001" aria-label="User id" />
            </Field>
            <Field label="Timeline" hint={timeline === 'tweets' ? 'Posts (spec 4.1): the user’s posts that are not replies.' : 'Posts and replies (spec 4.2): everything the user posted.'}>
              <select value={timeline} onChange={(e) => setTimeline(e.target.value as TimelineKind)} aria-label="Timeline">
                <option value="tweets">Posts</option>
                <option value="tweets-and-replies">Posts and replies</option>
              </select>
            </Field>
          </>
        ) : kind === 'replies' ? (
          <Field label="Post id" hint="tweet_id: the post whose direct and second-level replies are collected.">
            <input value={tweetId} onChange={(e) => setTweetId(e.target.value)} inputMode="numeric" placeholder="1849301923456789012" />
          </Field>
        ) : (
          <>
            <Field label="Query" hint="query: the search operators, as in Search." wide>
              <input value={q} onChange={(e) => setQ(e.target.value)} placeholder="#opendata -filter:replies" spellCheck={false} />
            </Field>
            <Field label="Order" hint="type: Latest (newest first) or Top (most engagement).">
              <select value={type} onChange={(e) => setType(e.target.value as 'Latest' | 'Top')}>
                <option value="Latest">Latest</option>
                <option value="Top">Top</option>
              </select>
            </Field>
            <Field label="Start from id" hint="max_id: appended to the query as max_id:<ID>.">
              <input value={maxId} onChange={(e) => setMaxId(e.target.value)} inputMode="numeric" placeholder="optional" />
            </Field>
          </>
        )}
        <Field label="Name" hint="name: optional, up to 80 characters; shown in Jobs and Exports next to the query or post id.">
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="optional, e.g. Debate night" maxLength={200} aria-label="Job name" />
        </Field>
        {kind === 'timeline' ? null : (
          <Field label="Stop at id" hint="since_id: only posts newer than this; the job stops when it is reached.">
            <input value={sinceId} onChange={(e) => setSinceId(e.target.value)} inputMode="numeric" placeholder="optional" />
          </Field>
        )}
        <Field label="Maximum posts" hint={kind === 'search' ? 'max_count: default 20.' : kind === 'timeline' ? 'max_count: default the whole timeline.' : 'max_count: default all replies.'}>
          <input value={maxCount} onChange={(e) => setMaxCount(e.target.value)} inputMode="numeric" placeholder={kind === 'search' ? '20' : 'all'} aria-label="Maximum posts" />
        </Field>
        <Field label="File format" hint={FORMAT_HINTS[format]}>
          <select value={format} onChange={(e) => setFormat(e.target.value as OutputFormat)} aria-label="File format">
            <option value="json">JSON</option>
            <option value="csv">CSV</option>
            <option value="xlsx">Excel (xlsx)</option>
            <option value="parquet">Parquet</option>
            <option value="gexf">Network (GEXF)</option>
          </select>
        </Field>
        {format === 'gexf' ? (
          <Field
            label="Timeline"
            hint={
              slice === 'static'
                ? 'No gexf_dynamic: one network; each edge keeps its first and last time.'
                : `gexf_dynamic=${slice}: each edge appears on Gephi's timeline in the ${slice}s it happened, weighted by its posts there.`
            }
          >
            <select value={slice} onChange={(e) => setSlice(e.target.value as GexfSlice | 'static')} aria-label="GEXF timeline">
              <option value="static">None (static)</option>
              <option value="hour">By hour</option>
              <option value="day">By day</option>
              <option value="week">By week</option>
            </select>
          </Field>
        ) : null}
        {format === 'csv' ? (
          <Field
            label="CSV for"
            hint={
              dialect === 'excel'
                ? 'csv_dialect=excel: a BOM, and an apostrophe before text starting with = + - @ so Excel never runs it.'
                : 'csv_dialect=plain: every text exactly as posted, no BOM; read it with pandas or R.'
            }
          >
            <select value={dialect} onChange={(e) => setDialect(e.target.value as CsvDialect)} aria-label="CSV dialect">
              <option value="excel">{CSV_DIALECT_LABELS.excel}</option>
              <option value="plain">{CSV_DIALECT_LABELS.plain}</option>
            </select>
          </Field>
        ) : null}
        <label className="check">
          <input type="checkbox" checked={compress} onChange={(e) => setCompress(e.target.checked)} /> Zip the file (compress)
        </label>
      </div>
      <div className="form-foot">
        <div className="estimate" aria-live="polite" data-testid="credit-hold">
          {missing ? (
            <span className="muted">{missing}</span>
          ) : problems.length ? (
            <span className="error-text">{problems[0]}</span>
          ) : queryError ? (
            <span className="error-text">The query has a mistake (marked below).</span>
          ) : estimate.error ? (
            <span className="error-text">{estimate.error.message}</span>
          ) : estimate.data ? (
            <span className={estimate.data.enough ? '' : 'error-text'}>
              Holds <strong>{fmtInt(estimate.data.hold)}</strong> credits ({estimate.data.basis}); {fmtInt(estimate.data.available)} available.
            </span>
          ) : (
            <span className="muted">Working out the credit hold…</span>
          )}
          {upstream && !problems.length ? (
            <span className="muted" data-testid="upstream-estimate">
              {' '}Fetches up to <strong>{fmtInt(upstream.items)}</strong> items from the upstream (${upstream.usd.toFixed(2)})
              {upstream.budget_left === null ? '' : `; the budget allows ${fmtInt(upstream.budget_left)} more`}.
            </span>
          ) : null}
          {upstream?.confirm && !problems.length ? (
            <label className="check">
              <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> Fetch up to {fmtInt(upstream.items)} items
              from the upstream (over the {fmtInt(upstream.threshold)} items over which Skein asks first)
            </label>
          ) : null}
        </div>
        <button type="submit" disabled={missing !== null || problems.length > 0 || Boolean(estimate.error) || create.isPending || estimate.data?.enough === false || mustConfirm}>
          {create.isPending ? 'Starting…' : 'Start job'}
        </button>
      </div>
      {queryError ? <QueryError q={q.trim()} error={queryError} /> : null}
      {/* The estimate already says why a job cannot start; a refusal at start is shown once, here. */}
      {create.error && create.error.message !== estimate.error?.message ? <ErrorState error={create.error} /> : null}
    </form>
  );
}

function Field({ label, hint, children, wide }: { label: string; hint: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <label className={`field ${wide ? 'wide' : ''}`}>
      <span className="label">{label}</span>
      {children}
      <span className="hint">{hint}</span>
    </label>
  );
}
