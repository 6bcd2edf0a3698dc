import { useMemo, useState } from 'react';
import { ConfirmBar } from '../../components/ConfirmBar';
import { FilterBar as FilterBox, FilterChoice, FilterText, FORMAT_CHOICES } from '../../components/FilterBar';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { ExportFile } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { bridge, isDesktop } from '../../api/transport';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/States';
import { fmtBytes, fmtDate, fmtDateTime, fmtInt, DATE_TIME_PX } from '../../format';
import { href, navigate, useRoute } from '../../router';
import { useDocumentTitle } from '../../document-title';
import { useUi } from '../../stores/ui';
import { UnfinishedFiles } from './UnfinishedFiles';
import { RetentionSection } from './RetentionSection';
import { type ExportFilter, filterExports, NO_FILTER } from './filter';

const col = createColumnHelper<ExportFile>();

const deletedBy = (f: ExportFile) => (f.deleted_by === 'retention' ? 'by the retention setting' : 'in Exports');

/** Words for a deleted file: when, by whom, and that the job and its charges stay. */
export function deletedNote(f: ExportFile): string {
  return `Deleted ${fmtDateTime(f.deleted_ms)} ${deletedBy(f)}. Job ${f.job_id} and its ledger charges stay; run the job again (Jobs > Retry) for a new file.`;
}

/** Where the file came from (issue 15): the search query, the post whose replies it holds, or the user whose timeline. */
export function sourceOf(f: ExportFile): string {
  if (f.job_kind === 'timeline') return `Timeline of user ${f.job_user_id ?? '?'}`;
  return f.job_kind === 'replies' ? `Replies to ${f.job_tweet_id ?? '?'}` : `Search “${f.job_query ?? ''}”`;
}

/**
 * Exports: every data file with its facts, a preview of its first rows, a way out of the window,
 * and Delete. A deleted file keeps its row, marked with the date: an analyst who looks for last
 * month's collection sees that it was deleted and when (and by the retention setting or by hand),
 * rather than a row gone without a trace that looks like lost data.
 */
export function ExportsView() {
  const files = useSkein('exports.list', undefined, { staleTime: 0 });
  useDocumentTitle('Exports');
  const { query } = useRoute();
  const selected = Number(query.get('job') ?? NaN);
  const [asking, setAsking] = useState<ExportFile | null>(null);
  const [filter, setFilter] = useState<ExportFilter>(NO_FILTER);
  const columns = useMemo(
    () =>
      [
        col.accessor('file_name', {
          header: 'File',
          size: 210,
          meta: { grow: true },
          cell: (c) => {
            const f = c.row.original;
            return (
              <span className={`truncate mono${f.file_state === 'kept' ? '' : ' muted'}`} title={f.file_state === 'deleted' ? deletedNote(f) : f.path}>
                {f.file_state === 'deleted' ? <span className="kind-tag">deleted</span> : null}
                {c.getValue()}
              </span>
            );
          },
        }),
        col.accessor((f) => `${f.job_name ?? ''} ${sourceOf(f)}`, {
          id: 'source',
          header: 'Collection',
          size: 220,
          meta: { grow: true },
          cell: (c) => {
            const f = c.row.original;
            return (
              <span className="truncate" title={f.job_name ? `${f.job_name}: ${sourceOf(f)}` : sourceOf(f)}>
                {f.job_name ? <strong className="job-name">{f.job_name}</strong> : null}
                {f.job_name ? <span className="muted"> · {sourceOf(f)}</span> : sourceOf(f)}
              </span>
            );
          },
        }),
        col.accessor((f) => `${f.format}${f.is_compressed ? ' · zip' : ''}`, { id: 'format', header: 'Format', size: 100 }),
        col.accessor('rows', { header: 'Rows', size: 90, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue()) }),
        col.accessor('bytes', { header: 'Size', size: 90, meta: { numeric: true }, cell: (c) => fmtBytes(c.getValue()) }),
        col.accessor('finished_ms', { header: 'Finished', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        col.accessor('job_id', { header: 'Job', size: 60, meta: { numeric: true } }),
        col.display({ id: 'out', header: '', size: isDesktop ? 230 : 176, meta: { sticky: true }, cell: (c) => <FileActions file={c.row.original} onDelete={setAsking} /> }),
      ] as ColumnDef<ExportFile, unknown>[],
    [],
  );
  const shown = useMemo(() => filterExports(files.data ?? [], filter), [files.data, filter]);
  const current = files.data?.find((f) => f.job_id === selected);
  return (
    <div className="view exports">
      <PageHeader title="Exports" subtitle="The files your collections produced, in the data dir's exports folder." />
      <section className="card">
        {files.error ? (
          <ErrorState error={files.error} />
        ) : (
          <>
            <FilterBar filter={filter} onChange={setFilter} shown={shown.length} total={files.data?.length ?? 0} />
            <DataTable
              label="Export files"
              data={shown}
              columns={columns}
              getRowId={(f) => String(f.job_id)}
              onOpen={(f) => navigate('/exports', { job: f.job_id })}
              height={280}
              initialSorting={[{ id: 'job_id', desc: true }]}
              empty={files.isPending ? 'Loading…' : files.data?.length ? 'No file matches these filters.' : 'No files yet: finished jobs appear here.'}
            />
          </>
        )}
        {asking ? <DeleteConfirm file={asking} onDone={() => setAsking(null)} /> : null}
      </section>
      {current ? <Preview file={current} onDelete={setAsking} /> : files.data?.length ? <Empty title="Select a file to preview its first rows" /> : null}
      <RetentionSection />
      <UnfinishedFiles />
    </div>
  );
}

function FilterBar({ filter, onChange, shown, total }: { filter: ExportFilter; onChange: (f: ExportFilter) => void; shown: number; total: number }) {
  return (
    <FilterBox label="Filter export files" shown={shown} total={total} noun={['file', 'files']}>
      <FilterText label="File, name, query or job" value={filter.text} placeholder="e.g. debate, #opendata, search-job12, 12" onChange={(text) => onChange({ ...filter, text })} />
      <FilterChoice label="Format" value={filter.format} choices={FORMAT_CHOICES} onChange={(format) => onChange({ ...filter, format })} />
      <FilterChoice
        label="State"
        value={filter.state}
        choices={[['all', 'All files'], ['kept', 'In the folder'], ['deleted', 'Deleted']]}
        onChange={(state) => onChange({ ...filter, state })}
      />
    </FilterBox>
  );
}

function FileActions({ file, onDelete }: { file: ExportFile; onDelete: (f: ExportFile) => void }) {
  if (file.file_state === 'deleted') {
    return (
      <span className="deleted-note muted small" title={deletedNote(file)}>
        <span>Deleted {fmtDate(file.deleted_ms)}</span>
        <span>{file.deleted_by === 'retention' ? 'by the retention setting' : 'by you'}</span>
      </span>
    );
  }
  const del = (
    <button type="button" className="subtle small danger" aria-label={`Delete ${file.file_name}`} onClick={() => onDelete(file)}>
      Delete
    </button>
  );
  if (file.file_state === 'missing') {
    return (
      <div className="row-actions" onClick={(e) => e.stopPropagation()}>
        <span className="warning-text small" title="The file is no longer in the exports folder: it was moved or deleted outside Skein. Delete records that.">Missing</span>
        {del}
      </div>
    );
  }
  return (
    <div className="row-actions" onClick={(e) => e.stopPropagation()}>
      {isDesktop ? (
        <>
          <span
            className="button subtle small drag-handle"
            draggable
            onDragStart={(e) => {
              e.preventDefault();
              bridge.desktop?.startDrag(file.job_id);
            }}
            title="Drag into Excel or the file manager"
          >
            ⠿ Drag
          </span>
          <button type="button" className="subtle small" onClick={() => void bridge.desktop?.showInFolder(file.job_id)}>Show</button>
        </>
      ) : (
        <a className="button subtle small" href={file.datafile_url} download={file.file_name}>Download</a>
      )}
      {del}
    </div>
  );
}

/** Asks before a file goes: names it and its size, and says what stays (the job, the ledger). */
function DeleteConfirm({ file, onDone }: { file: ExportFile; onDone: () => void }) {
  const remove = useSkeinMutation('exports.delete', ['exports.list', 'exports.retention', 'jobs.list']);
  const toast = useUi((s) => s.toast);
  return (
    <ConfirmBar
      label={`Delete ${file.file_name}`}
      testId="delete-export-confirm"
      action="Delete file"
      busyAction="Deleting…"
      busy={remove.isPending}
      onKeep={onDone}
      onConfirm={() =>
        remove.mutate(
          { job_id: file.job_id },
          {
            onSuccess: (r) => toast(`Deleted ${r.file_name} (${fmtBytes(r.bytes)} freed). Job ${r.job_id} and its charges stay.`, 'ok'),
            onError: (e) => toast(e.message, 'error'),
            onSettled: onDone,
          },
        )
      }
    >
      Delete <strong className="mono">{file.file_name}</strong> ({fmtBytes(file.bytes)}, {fmtInt(file.rows)} rows) from the exports folder? Its
      URL stops working (410 Gone). Job {file.job_id} and its ledger charges stay; running the job again makes a new file.
    </ConfirmBar>
  );
}

function Preview({ file, onDelete }: { file: ExportFile; onDelete: (f: ExportFile) => void }) {
  return (
    <section className="card" aria-labelledby="preview-title">
      <header className="card-head">
        <h2 id="preview-title">{file.file_state === 'deleted' ? 'Deleted: ' : 'Preview of '}<span className="mono">{file.file_name}</span></h2>
        <FileActions file={file} onDelete={onDelete} />
      </header>
      <p className="muted small">
        {file.job_name ? <><strong>{file.job_name}</strong> · </> : null}{sourceOf(file)} · {fmtInt(file.rows)} rows · {fmtBytes(file.bytes)} · <code className="wrap">{file.path}</code>
      </p>
      <p className="small" data-testid="export-overview">
        {file.rows_recorded ? (
          <><a href={href('/overview', { job: file.job_id })}>Overview of these rows</a>: posts over time, hashtags, mentions, links, languages, clients{file.file_state === 'kept' ? '' : ' (Skein keeps which posts the job wrote, so this works without the file)'}</>
        ) : (
          <span className="muted">No overview of these rows: job {file.job_id} ran before Skein recorded which posts a job writes.</span>
        )}
      </p>
      {file.file_state === 'kept' ? <PreviewRows file={file} /> : <p>{file.file_state === 'deleted' ? deletedNote(file) : 'The file is no longer in the exports folder: it was moved or deleted outside Skein.'}</p>}
    </section>
  );
}

function PreviewRows({ file }: { file: ExportFile }) {
  const preview = useSkein('exports.preview', { job_id: file.job_id, rows: 20 }, { staleTime: Infinity });
  return preview.error ? <ErrorState error={preview.error} /> : preview.isPending ? <Loading /> : <PreviewTable columns={preview.data.columns} rows={preview.data.rows} />;
}

function PreviewTable({ columns, rows }: { columns: string[]; rows: string[][] }) {
  const defs = useMemo(
    () =>
      columns.map((name, i) => ({
        id: `c${i}`,
        header: name,
        size: /id_str$/.test(name) ? 190 : Math.min(280, Math.max(120, name.length * 10)),
        accessorFn: (r: { i: number; cells: string[] }) => r.cells[i] ?? '',
        cell: (c: { getValue: () => unknown }) => <span className="truncate" title={String(c.getValue())}>{String(c.getValue())}</span>,
      })) as ColumnDef<{ i: number; cells: string[] }, unknown>[],
    [columns],
  );
  const data = useMemo(() => rows.map((cells, i) => ({ i, cells })), [rows]);
  return (
    <div className="scroll-x preview-table">
      <DataTable label="File preview" data={data} columns={defs} getRowId={(r) => String(r.i)} height={320} rowHeight={36} empty="The file has no rows." />
    </div>
  );
}
