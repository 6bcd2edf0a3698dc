import { useCallback, useRef, useState } from 'react';
import type { JobRow, OverviewBucket, OverviewCount } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { fmtInt } from '../../format';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/States';
import { href, navigate, useRoute } from '../../router';
import { clip, useDocumentTitle } from '../../document-title';
import { useTimeZone } from '../../stores/time-zone';
import { canvasPng, download, seriesCsv, seriesSvg } from './chart-export';
import { drillDown, termOf, type ListKind } from './drill-down';
import { axisLabels, chartTheme, PostsChart, SERIES_LABELS, useBucketFormat } from './PostsChart';

// Overview of a search query's matches (#/overview?q=...), of a user's posts (?user=@name) or of
// the rows a finished job wrote (?job=12): every number is counted by the engine
// ('overview.get'); this view only draws them.

const BUCKETS: OverviewBucket[] = ['hour', 'day', 'week', 'month'];

export function OverviewView() {
  const { query } = useRoute();
  const q = query.get('q') ?? '';
  const user = query.get('user') ?? '';
  const job = /^\d{1,15}$/.test(query.get('job') ?? '') ? Number(query.get('job')) : null;
  useDocumentTitle(q ? `Overview of ${clip(q)}` : user ? `Overview of ${user}` : job !== null ? `Overview of job ${job}` : 'Overview');
  if (q) return <QueryOverview q={q} />;
  if (user) return <UserOverview user={user} />;
  if (job !== null) return <JobOverview jobId={job} />;
  return <Empty title="Nothing to describe">Open an overview from a search, a user’s timeline, or a finished job.</Empty>;
}

/** What a job collected, in words: its name, then its query or post. */
function jobWords(job: JobRow): string {
  const what = job.kind === 'replies' ? `replies to post ${String(job.params.tweet_id ?? '?')}` : `search “${String(job.params.query ?? '')}”`;
  return typeof job.params.name === 'string' ? `${job.params.name}: ${what}` : what;
}

function JobOverview({ jobId }: { jobId: number }) {
  const job = useSkein('jobs.get', { job_id: jobId }, { staleTime: 0 });
  const back = <a href={href('/jobs')}>Back to the jobs</a>;
  if (job.error) return <div className="view"><PageHeader title="Overview" actions={back} /><ErrorState error={job.error} /></div>;
  if (job.isPending) return <div className="view"><PageHeader title="Overview" /><Loading /></div>;
  const j = job.data;
  const header = <PageHeader title="Overview" subtitle={j.status === 'success' ? <>The {fmtInt(j.progress)} rows job {j.job_id} wrote: {jobWords(j)}</> : <>Job {j.job_id}: {jobWords(j)}</>} actions={back} />;
  let unavailable: string | null = null;
  if (j.status === 'pending' || j.status === 'processing') unavailable = `Job ${j.job_id} has not finished yet. Its overview describes the rows it wrote, once all of them are written.`;
  else if (j.status === 'error') unavailable = `Job ${j.job_id} ${j.cancelled ? 'was cancelled' : 'failed'} and wrote no file, so it has no rows to describe.`;
  else if (!j.rows_recorded) unavailable = `Job ${j.job_id} ran before Skein recorded which posts a job writes, so the overview of its rows is not available. Its file still holds them; a new job with the same parameters has an overview.`;
  return (
    <div className="view">
      {header}
      {unavailable ? (
        <Empty title="No overview for this job"><span data-testid="job-overview-unavailable">{unavailable}</span></Empty>
      ) : (
        <OverviewBody scope={{ job_id: j.job_id }} />
      )}
    </div>
  );
}

function QueryOverview({ q }: { q: string }) {
  return (
    <div className="view">
      <PageHeader title="Overview" subtitle={<>Posts matching <code>{q}</code></>} actions={<a href={href('/search', { q })}>Back to the results</a>} />
      <OverviewBody scope={{ query: q }} base={{ query: q }} />
    </div>
  );
}

function UserOverview({ user }: { user: string }) {
  const lookup = useSkein('users.lookup', { user }, { staleTime: Infinity });
  if (lookup.error) return <ErrorState error={lookup.error} />;
  if (lookup.isPending) return <Loading />;
  const name = lookup.data.screen_name;
  return (
    <div className="view">
      <PageHeader title="Overview" subtitle={<>Posts of @{name} in the corpus</>} actions={<a href={href('/timeline', { user })}>Back to the timeline</a>} />
      <OverviewBody scope={{ user_id: lookup.data.id_str }} base={{ screenName: name }} />
    </div>
  );
}

type Base = { query: string } | { screenName: string | null };

/** `base`: what a top-list click searches with its entry; a job's comes with its figures (the search that holds its rows). */
function OverviewBody({ scope, base: given }: { scope: { query: string } | { user_id: string } | { job_id: number }; base?: Base }) {
  const appZone = useTimeZone((s) => s.zone);
  const [utc, setUtc] = useState(appZone === 'utc');
  const [bucket, setBucket] = useState<OverviewBucket | ''>('');
  // A fixed offset: today's (the engine buckets by it; a DST change inside the span is not followed).
  const offset = utc ? 0 : -new Date().getTimezoneOffset();
  const o = useSkein('overview.get', { ...scope, ...(bucket ? { bucket } : {}), utc_offset_minutes: offset });
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const onCanvas = useCallback((c: HTMLCanvasElement | null) => {
    canvas.current = c;
  }, []);
  const fmtX = useBucketFormat(o.data?.bucket, utc);
  if (o.error) return <ErrorState error={o.error} />;
  if (o.isPending) return <Loading lines={6} />;
  const d = o.data;
  const fileBase = 'query' in scope ? 'overview-search' : 'job_id' in scope ? `overview-job-${scope.job_id}` : `overview-user-${scope.user_id}`;
  const base: Base = given ?? ('search_query' in d.scope ? { query: d.scope.search_query } : { query: '' });
  const saveSvg = () => {
    const t = chartTheme();
    const labels = axisLabels(d, utc);
    const svg = seriesSvg(d.series.start_ms, SERIES_LABELS.map((label, k) => ({ label, color: t.series[k]!, values: [d.series.posts, d.series.replies, d.series.quotes][k]! })), t, labels.x, labels.y, fmtX);
    download(`${fileBase}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
  };
  const savePng = async () => {
    if (!canvas.current) return;
    const blob = await canvasPng(canvas.current, chartTheme().background);
    if (blob) download(`${fileBase}.png`, blob);
  };
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    <>
      <section className="figure-cards" aria-label="Figures">
        <Figure label="Posts" value={fmtInt(d.posts)} testId="ov-posts" note={d.capped ? 'the newest 1,000,000 of more' : undefined} />
        <Figure label="Unique authors" value={fmtInt(d.unique_authors)} testId="ov-authors" />
        <Figure label="Replies" value={pct(d.reply_share)} testId="ov-reply-share" note={`${fmtInt(d.replies)} posts`} />
        <Figure label="Quotes" value={pct(d.quote_share)} testId="ov-quote-share" note={`${fmtInt(d.quotes)} posts`} />
      </section>
      {d.posts === 0 ? (
        <Empty title="No posts">Nothing in the corpus matches, so there is nothing to count.</Empty>
      ) : (
        <>
          <section className="card overview-chart" aria-label="Posts over time">
            <div className="overview-toolbar">
              <h2 className="small-heading">Posts over time</h2>
              <label>
                Per{' '}
                <select value={bucket} onChange={(e) => setBucket(e.target.value as OverviewBucket | '')} aria-label="Bucket">
                  <option value="">auto ({d.bucket})</option>
                  {BUCKETS.map((b) => <option key={b} value={b}>{b}</option>)}
                </select>
              </label>
              <span role="radiogroup" aria-label="Time zone">
                <label><input type="radio" name="ov-zone" checked={utc} onChange={() => setUtc(true)} /> UTC</label>{' '}
                <label><input type="radio" name="ov-zone" checked={!utc} onChange={() => setUtc(false)} /> Local</label>
              </span>
              <span className="spacer" />
              <button type="button" className="subtle" onClick={() => void savePng()}>Save PNG</button>
              <button type="button" className="subtle" onClick={saveSvg}>Save SVG</button>
              <button type="button" className="subtle" onClick={() => download(`${fileBase}.csv`, new Blob([seriesCsv(d)], { type: 'text/csv' }))}>Save CSV</button>
            </div>
            {d.bucket_requested ? <p className="muted">Per {d.bucket_requested} would make over 1,000 points; shown per {d.bucket}.</p> : null}
            <PostsChart overview={d} utc={utc} fmtX={fmtX} onCanvas={onCanvas} />
          </section>
          {'search_query' in d.scope ? (
            <p className="muted small" data-testid="job-drill-note">
              A click on an entry searches the corpus for <code>{d.scope.search_query}</code> and the entry: that holds this job’s rows and may hold more.
            </p>
          ) : null}
          <section className="overview-lists">
            <TopList title="Hashtags" kind="hashtags" items={d.hashtags} base={base} />
            <TopList title="Mentions" kind="mentions" items={d.mentions} base={base} />
            <TopList title="Linked domains" kind="domains" items={d.domains} base={base} />
            <TopList title="Languages" kind="languages" items={d.languages} base={base} />
            <TopList title="Posting clients" kind="clients" items={d.clients} base={base} />
          </section>
        </>
      )}
    </>
  );
}

function Figure({ label, value, note, testId }: { label: string; value: string; note?: string | undefined; testId: string }) {
  return (
    <div className="figure-card">
      <div className="figure-label">{label}</div>
      <div className="figure-value" data-testid={testId}>{value}</div>
      {note ? <div className="muted small">{note}</div> : null}
    </div>
  );
}

const PREFIX: Record<ListKind, string> = { hashtags: '#', mentions: '@', domains: '', languages: '', clients: '' };

function TopList({ title, kind, items, base }: { title: string; kind: ListKind; items: OverviewCount[]; base: { query: string } | { screenName: string | null } }) {
  const max = Math.max(1, ...items.map((i) => i.count));
  return (
    <section className="card overview-list" aria-label={title} data-testid={`ov-${kind}`}>
      <h2 className="small-heading">{title}</h2>
      {items.length === 0 ? <p className="muted">None.</p> : null}
      <table>
        <thead>
          <tr><th scope="col">{title}</th><th scope="col" className="num">Posts</th></tr>
        </thead>
        <tbody>
          {items.map((i) => {
            const term = termOf(kind, i.value);
            const label = `${PREFIX[kind]}${i.value}`;
            return (
              <tr key={i.value}>
                <td>
                  <div className="overview-bar" style={{ width: `${(i.count / max) * 100}%` }} aria-hidden="true" />
                  {term ? (
                    <button type="button" className="link" title={`Search ${drillDown(base, term)}`} onClick={() => navigate('/search', { q: drillDown(base, term) })}>{label}</button>
                  ) : (
                    <span title="The search language has no operator for the posting client">{label}</span>
                  )}
                </td>
                <td className="num">{fmtInt(i.count)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
