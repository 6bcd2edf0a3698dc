import { useEffect, useMemo, useRef, useState } from 'react';
import { FilterBar as FilterBox, FilterChoice, FilterText, FORMAT_CHOICES } from '../../components/FilterBar';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { JobRow } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { ProgressBar } from '../../components/ProgressBar';
import { ErrorState } from '../../components/States';
import { ConfirmBar } from '../../components/ConfirmBar';
import { fmtBytes, fmtDateTime, fmtDuration, fmtInt, DATE_TIME_PX } from '../../format';
import { useUi } from '../../stores/ui';
import { href } from '../../router';
import { useDocumentTitle } from '../../document-title';
import { JobForm } from './JobForm';
import { rateAndEta } from './rate';
import { filterJobs, type JobFilter, NO_JOB_FILTER } from './filter';

const col = createColumnHelper<JobRow>();

function describe(job: JobRow): string {
  const p = job.params;
  if (job.kind === 'replies') return `Replies to ${String(p.tweet_id ?? '?')}`;
  if (job.kind === 'timeline') {
    const who = job.subject_screen_name ? `@${job.subject_screen_name}` : `user ${String(p.user_id ?? '?')}`;
    return `Timeline of ${who}${p.timeline === 'tweets-and-replies' ? ' (posts and replies)' : ''}`;
  }
  return `Search “${String(p.query ?? '')}”`;
}

/** The data file's name, from its URL (the list carries the URL, not the name). */
function fileNameOf(job: JobRow): string | null {
  if (!job.result || job.result.file_deleted_ms !== undefined) return null;
  const last = job.result.datafile_url.split('/').pop();
  return last ? decodeURIComponent(last) : null;
}

/** The job's name first (issue 15), then what it collects, so a named job still shows its query. */
function Collection({ job }: { job: JobRow }) {
  const name = typeof job.params.name === 'string' ? job.params.name : null;
  const what = describe(job);
  return (
    <span className="truncate" title={name ? `${name}: ${what}` : what}>
      {name ? <strong className="job-name">{name}</strong> : null}
      {name ? <span className="muted"> · {what}</span> : what}
    </span>
  );
}

export function JobsView() {
  useDocumentTitle('Jobs');
  const jobs = useSkein('jobs.list', undefined, {
    // Events refresh the list; polling every 2 s is the safety net while something runs.
    refetchInterval: (q) => (q.state.data?.some((j) => j.status === 'pending' || j.status === 'processing') ? 2000 : false),
    staleTime: 0,
  });
  const cancel = useSkeinMutation('jobs.cancel', ['jobs.list']);
  const retry = useSkeinMutation('jobs.retry', ['jobs.list', 'credits.ledger', 'users.list']);
  // Retry starts a new job with its own hold: the hold is shown first, as in the form above.
  const [retrying, setRetrying] = useState<number | null>(null);
  // Deleting cannot be undone: it is asked first (ConfirmBar), for one job at a time.
  const [deleting, setDeleting] = useState<JobRow | null>(null);
  const columns = useMemo(
    () =>
      [
        col.accessor('job_id', { header: 'Job', size: 64, meta: { numeric: true } }),
        col.accessor((j) => `${typeof j.params.name === 'string' ? `${j.params.name} · ` : ''}${describe(j)}`, { id: 'what', header: 'Collection', size: 260, meta: { grow: true }, cell: (c) => <Collection job={c.row.original} /> }),
        col.accessor((j) => `${String(j.params.output_format ?? 'json')}${j.params.csv_dialect === 'plain' ? ' · plain' : ''}${j.params.gexf_dynamic ? ` · ${String(j.params.gexf_dynamic)}` : ''}${j.params.compress ? ' · zip' : ''}`, { id: 'format', header: 'File', size: 110 }),
        col.accessor('status', {
          header: 'Status',
          size: 100,
          // A cancelled job is not a failure: its own word and a quiet badge (the API still says 'error').
          cell: (c) =>
            c.row.original.cancelled ? (
              <span className="state-badge cancelled" title={c.row.original.message ?? undefined}>cancelled</span>
            ) : (
              <span className={`state-badge ${c.getValue()}`} title={c.row.original.message ?? undefined}>{c.getValue()}</span>
            ),
        }),
        col.accessor('progress', {
          header: 'Progress',
          size: 170,
          cell: (c) => {
            const j = c.row.original;
            return (
              <div className="progress-cell">
                <ProgressBar value={j.progress} total={j.status === 'success' ? j.progress || 1 : j.progress_total} label={`Progress of job ${j.job_id}`} />
                <span className="small muted">{fmtInt(j.progress)}{j.progress_total !== null ? ` / ${fmtInt(j.progress_total)}` : ''}</span>
              </div>
            );
          },
        }),
        col.display({
          id: 'rate',
          header: 'Rate · ETA',
          size: 130,
          cell: (c) => {
            const { rate, etaMs } = rateAndEta(c.row.original, Date.now());
            return <span className="small">{rate === null ? '—' : `${fmtInt(Math.round(rate))}/s`}{etaMs !== null ? ` · ${fmtDuration(etaMs)} left` : ''}</span>;
          },
        }),
        col.accessor('credits_used', { header: 'Credits', size: 90, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue()) }),
        col.accessor('created_ms', { header: 'Created', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        col.display({
          id: 'actions',
          header: '',
          // Room for the widest set: Retry, File, Overview and Delete… (a finished job whose file was deleted).
          size: 310,
          // Kept in view at the right edge when a narrow window scrolls the table sideways.
          meta: { sticky: true },
          cell: (c) => {
            const j = c.row.original;
            const running = j.status === 'pending' || j.status === 'processing';
            return (
              <div className="row-actions" onClick={(e) => e.stopPropagation()}>
                {running ? <button type="button" className="subtle small" onClick={() => cancel.mutate({ job_id: j.job_id })}>Cancel</button> : null}
                {j.status === 'error' || j.result?.file_deleted_ms !== undefined ? <button type="button" className="subtle small" onClick={() => { setDeleting(null); setRetrying(j.job_id); }}>Retry</button> : null}
                {j.status === 'success' ? <a className="button subtle small" href={href('/exports', { job: j.job_id })}>File</a> : null}
                {j.status === 'success' ? <OverviewLink job={j} /> : null}
                {/* A running job is cancelled first (the engine refuses to delete it): no Delete beside Cancel. */}
                {running ? null : (
                  <button type="button" className="subtle small danger" onClick={() => { setRetrying(null); setDeleting(j); }} aria-label={`Delete job ${j.job_id}…`}>
                    Delete…
                  </button>
                )}
              </div>
            );
          },
        }),
      ] as ColumnDef<JobRow, unknown>[],
    [cancel, retry],
  );
  const [filter, setFilter] = useState<JobFilter>(NO_JOB_FILTER);
  const shown = useMemo(() => filterJobs(jobs.data ?? [], filter), [jobs.data, filter]);
  const failed = jobs.data?.filter((j) => j.status === 'error' && !j.cancelled && j.message) ?? [];
  return (
    <div className="view jobs">
      <PageHeader title="Jobs" subtitle="Collections run in the background, survive restarts, and end in a file." />
      <JobForm />
      <section className="card" aria-labelledby="job-list-title">
        <h2 id="job-list-title">Collections</h2>
        {jobs.error ? (
          <ErrorState error={jobs.error} />
        ) : (
          <>
            <FilterBar filter={filter} onChange={setFilter} shown={shown.length} total={jobs.data?.length ?? 0} />
            <DataTable
              label="Jobs"
              data={shown}
              columns={columns}
              getRowId={(j) => String(j.job_id)}
              height={320}
              empty={jobs.isPending ? 'Loading…' : jobs.data?.length ? 'No job matches these filters.' : 'No jobs yet: start one above.'}
              initialSorting={[{ id: 'job_id', desc: true }]}
            />
          </>
        )}
        {cancel.error ? <ErrorState error={cancel.error} /> : null}
        {deleting !== null ? <DeleteJobConfirm job={deleting} onDone={() => setDeleting(null)} /> : null}
        {retrying !== null ? (
          <RetryConfirm
            jobId={retrying}
            starting={retry.isPending}
            onStart={() => retry.mutate({ job_id: retrying }, { onSettled: () => setRetrying(null) })}
            onKeep={() => setRetrying(null)}
          />
        ) : null}
        {retry.error ? <ErrorState error={retry.error} /> : null}
        {failed.length ? (
          <ul className="job-errors" aria-label="Errors">
            {failed.slice(0, 5).map((j) => (
              <li key={j.job_id}><strong>Job {j.job_id}:</strong> {j.message}</li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}

function FilterBar({ filter, onChange, shown, total }: { filter: JobFilter; onChange: (f: JobFilter) => void; shown: number; total: number }) {
  return (
    <FilterBox label="Filter jobs" shown={shown} total={total} noun={['job', 'jobs']}>
      <FilterText label="Name, query, post or user id, or job" value={filter.text} placeholder="e.g. debate, #opendata, 1850…, @alice, 12" onChange={(text) => onChange({ ...filter, text })} />
      <FilterChoice
        label="Status"
        value={filter.status}
        choices={[['all', 'All statuses'], ['running', 'Running or waiting'], ['success', 'Finished'], ['failed', 'Failed'], ['cancelled', 'Cancelled']]}
        onChange={(status) => onChange({ ...filter, status })}
      />
      <FilterChoice
        label="Kind"
        value={filter.kind}
        choices={[['all', 'All kinds'], ['replies', 'Replies'], ['search', 'Search'], ['timeline', 'Timeline']]}
        onChange={(kind) => onChange({ ...filter, kind })}
      />
      <FilterChoice label="Format" value={filter.format} choices={FORMAT_CHOICES} onChange={(format) => onChange({ ...filter, format })} />
    </FilterBox>
  );
}

/**
 * The overview of a finished job's rows (#/overview?job=N); a job from before Skein recorded its
 * rows (migration 066) says plainly that it has none.
 */
function OverviewLink({ job }: { job: JobRow }) {
  if (!job.rows_recorded) {
    return (
      <span className="muted small" title="This job ran before Skein recorded which posts a job writes: the overview of its rows is not available." data-testid={`no-overview-${job.job_id}`}>
        No overview
      </span>
    );
  }
  return (
    <a className="button subtle small" href={href('/overview', { job: job.job_id })} title="Overview of these rows" aria-label={`Overview of the rows of job ${job.job_id}`}>
      Overview
    </a>
  );
}

/** Retrying holds credits again: say how many (and what is available) before the new job starts. */
function RetryConfirm({ jobId, starting, onStart, onKeep }: { jobId: number; starting: boolean; onStart: () => void; onKeep: () => void }) {
  const estimate = useSkein('jobs.retryEstimate', { job_id: jobId }, { staleTime: 0 });
  return (
    <div className="retry-confirm" role="group" aria-label={`Retry job ${jobId}`} data-testid="retry-confirm">
      <span className="estimate">
        {estimate.error ? (
          <span className="error-text">{estimate.error.message}</span>
        ) : estimate.data ? (
          <span className={estimate.data.enough ? '' : 'error-text'}>
            Retrying job {jobId} starts a new job that holds <strong>{fmtInt(estimate.data.hold)}</strong> credits ({estimate.data.basis});{' '}
            {fmtInt(estimate.data.available)} available.
          </span>
        ) : (
          <span className="muted">Working out the credit hold…</span>
        )}
      </span>
      <button type="button" disabled={starting || !estimate.data?.enough} onClick={onStart}>{starting ? 'Starting…' : 'Start again'}</button>
      <button type="button" className="subtle" onClick={onKeep}>Cancel</button>
    </div>
  );
}

/**
 * Asks before a job goes (issue 15): what it collected, the file that goes with it, and what
 * stays: its charges in the ledger. The engine refuses a running job; the list offers no Delete there.
 */
function DeleteJobConfirm({ job, onDone }: { job: JobRow; onDone: () => void }) {
  const remove = useSkeinMutation('jobs.delete', ['jobs.list', 'exports.list', 'exports.retention', 'exports.partials']);
  const toast = useUi((s) => s.toast);
  const file = fileNameOf(job);
  // The question appears under the table: brought into view once, so it is never asked off-screen.
  const box = useRef<HTMLDivElement>(null);
  // A block, not an expression: Chromium's scrollIntoView now returns a promise, which React would
  // take for the effect's cleanup and call on unmount ("is not a function").
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
  }, [job.job_id]);
  return (
    <div ref={box}>
      <ConfirmBar
        label={`Delete job ${job.job_id}`}
        testId="delete-job-confirm"
        action="Delete job"
        busyAction="Deleting…"
        busy={remove.isPending}
        onKeep={onDone}
        onConfirm={() =>
          remove.mutate(
            { job_id: job.job_id },
            {
              onSuccess: (r) =>
                toast(`Deleted job ${r.job_id}${r.file_name ? ` and ${r.file_name} (${fmtBytes(r.bytes)} freed)` : ''}. Its charges stay in the ledger.`, 'ok'),
              onError: (e) => toast(e.message, 'error'),
              onSettled: onDone,
            },
          )
        }
      >
        Delete job {job.job_id} ({describe(job)}){file ? <> and its file <strong className="mono">{file}</strong></> : null}? It leaves Jobs and Exports
        {file ? ' and the file\'s URL stops working (410 Gone)' : ''}. The {fmtInt(job.credits_used)} credits it was charged stay in the ledger.
      </ConfirmBar>
    </div>
  );
}
