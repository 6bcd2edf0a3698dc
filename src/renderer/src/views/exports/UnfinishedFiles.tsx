import { useMemo, useState } from 'react';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { PartialFile } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { DataTable } from '../../components/DataTable';
import { ErrorState } from '../../components/States';
import { fmtBytes } from '../../format';
import { useUi } from '../../stores/ui';

const col = createColumnHelper<PartialFile>();

function stateText(f: PartialFile): string {
  if (f.state === 'orphan') return 'no job';
  if (f.state === 'ended') return `ended (${f.job_status ?? 'gone'})`;
  return f.disk_full ? 'paused: disk full' : 'waiting to retry';
}

/**
 * The unfinished files in exports/.partial that no running job uses (issue 13): shown only when
 * there are some. A full disk leaves them: a paused job's rows so far, or what an ended job left.
 * Removing a waiting job's file frees its space now and makes the job collect again from row 0
 * (it pays for no row twice), so that removal asks first.
 */
export function UnfinishedFiles() {
  const files = useSkein('exports.partials', undefined, { staleTime: 0 });
  const remove = useSkeinMutation('exports.removePartial', ['exports.partials', 'jobs.list']);
  const toast = useUi((s) => s.toast);
  const [asking, setAsking] = useState<PartialFile | null>(null);
  const removeNow = (f: PartialFile) =>
    remove.mutate(
      { file_name: f.file_name },
      {
        onSuccess: (r) =>
          toast(`Removed ${f.file_name} (${fmtBytes(r.freed_bytes)} freed)${r.restarted_job !== null ? `; job ${r.restarted_job} collects again from row 0.` : '.'}`, 'ok'),
        onSettled: () => setAsking(null),
      },
    );
  const columns = useMemo(
    () =>
      [
        col.accessor('file_name', { header: 'File', size: 200, meta: { grow: true }, cell: (c) => <span className="truncate mono" title={c.row.original.path}>{c.getValue()}</span> }),
        col.accessor('job_id', { header: 'Job', size: 60, meta: { numeric: true }, cell: (c) => c.getValue() ?? '—' }),
        col.accessor((f) => stateText(f), { id: 'state', header: 'State', size: 150, cell: (c) => <span title={c.row.original.job_message ?? undefined}>{c.getValue()}</span> }),
        col.accessor('bytes', { header: 'Size', size: 90, meta: { numeric: true }, cell: (c) => fmtBytes(c.getValue()) }),
        col.display({
          id: 'remove',
          header: '',
          size: 90,
          cell: (c) => {
            const f = c.row.original;
            return (
              <div className="row-actions" onClick={(e) => e.stopPropagation()}>
                <button type="button" className="subtle small" aria-label={`Remove ${f.file_name}`} disabled={remove.isPending} onClick={() => (f.state === 'waiting' ? setAsking(f) : removeNow(f))}>
                  Remove
                </button>
              </div>
            );
          },
        }),
      ] as ColumnDef<PartialFile, unknown>[],
    [remove, toast],
  );
  if (files.error) return <ErrorState error={files.error} />;
  if (!files.data?.length) return null;
  const full = files.data.filter((f) => f.disk_full && f.job_message);
  return (
    <section className="card" aria-labelledby="unfinished-title">
      <h2 id="unfinished-title">Unfinished files</h2>
      <p className="muted small">
        Files in <code>exports/.partial</code> that no running job uses: the rows of a job waiting to resume, or what a job that ended left.
        Removing a waiting job&apos;s file frees its space now; the job then collects again from row 0 and pays for no row twice.
      </p>
      <DataTable label="Unfinished files" data={files.data} columns={columns} getRowId={(f) => f.file_name} height={220} />
      {full.length ? (
        <ul className="job-errors" aria-label="Paused by a full disk">
          {full.slice(0, 3).map((f) => (
            <li key={f.file_name}><strong>Job {f.job_id}:</strong> {f.job_message}</li>
          ))}
        </ul>
      ) : null}
      {asking ? (
        <div className="retry-confirm" role="group" aria-label={`Remove ${asking.file_name}`} data-testid="remove-partial-confirm">
          <span className="estimate">
            Job {asking.job_id} waits to resume from this file ({fmtBytes(asking.bytes)}). Without it, the job collects again from row 0; the rows it already paid for are not charged again.
          </span>
          <button type="button" disabled={remove.isPending} onClick={() => removeNow(asking)}>{remove.isPending ? 'Removing…' : 'Remove and restart'}</button>
          <button type="button" className="subtle" onClick={() => setAsking(null)}>Keep</button>
        </div>
      ) : null}
      {remove.error ? <ErrorState error={remove.error} /> : null}
    </section>
  );
}
