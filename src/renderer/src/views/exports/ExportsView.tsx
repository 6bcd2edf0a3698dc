import { useMemo } from 'react';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { ExportFile } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { bridge, isDesktop } from '../../api/transport';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/States';
import { fmtBytes, fmtDateTime, fmtInt, DATE_TIME_PX } from '../../format';
import { navigate, useRoute } from '../../router';
import { useDocumentTitle } from '../../document-title';
import { UnfinishedFiles } from './UnfinishedFiles';

const col = createColumnHelper<ExportFile>();

/** Exports: every data file with its facts, a preview of its first rows, and a way out of the window. */
export function ExportsView() {
  const files = useSkein('exports.list', undefined, { staleTime: 0 });
  useDocumentTitle('Exports');
  const { query } = useRoute();
  const selected = Number(query.get('job') ?? NaN);
  const columns = useMemo(
    () =>
      [
        col.accessor('file_name', { header: 'File', size: 240, meta: { grow: true }, cell: (c) => <span className="truncate mono" title={c.row.original.path}>{c.getValue()}</span> }),
        col.accessor((f) => `${f.format}${f.is_compressed ? ' · zip' : ''}`, { id: 'format', header: 'Format', size: 100 }),
        col.accessor('rows', { header: 'Rows', size: 90, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue()) }),
        col.accessor('bytes', { header: 'Size', size: 90, meta: { numeric: true }, cell: (c) => fmtBytes(c.getValue()) }),
        col.accessor('finished_ms', { header: 'Finished', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        col.accessor('job_id', { header: 'Job', size: 60, meta: { numeric: true } }),
        col.display({ id: 'out', header: '', size: 150, meta: { sticky: true }, cell: (c) => <FileActions file={c.row.original} /> }),
      ] as ColumnDef<ExportFile, unknown>[],
    [],
  );
  const current = files.data?.find((f) => f.job_id === selected);
  return (
    <div className="view exports">
      <PageHeader title="Exports" subtitle="The files your collections produced, in the data dir's exports folder." />
      <section className="card">
        {files.error ? (
          <ErrorState error={files.error} />
        ) : (
          <DataTable
            label="Export files"
            data={files.data ?? []}
            columns={columns}
            getRowId={(f) => String(f.job_id)}
            onOpen={(f) => navigate('/exports', { job: f.job_id })}
            height={280}
            initialSorting={[{ id: 'job_id', desc: true }]}
            empty={files.isPending ? 'Loading…' : 'No files yet: finished jobs appear here.'}
          />
        )}
      </section>
      {current ? <Preview file={current} /> : files.data?.length ? <Empty title="Select a file to preview its first rows" /> : null}
      <UnfinishedFiles />
    </div>
  );
}

function FileActions({ file }: { file: ExportFile }) {
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
    </div>
  );
}

function Preview({ file }: { file: ExportFile }) {
  const preview = useSkein('exports.preview', { job_id: file.job_id, rows: 20 }, { staleTime: Infinity });
  return (
    <section className="card" aria-labelledby="preview-title">
      <header className="card-head">
        <h2 id="preview-title">Preview of <span className="mono">{file.file_name}</span></h2>
        <FileActions file={file} />
      </header>
      <p className="muted small">
        {fmtInt(file.rows)} rows · {fmtBytes(file.bytes)} · <code className="wrap">{file.path}</code>
      </p>
      {preview.error ? <ErrorState error={preview.error} /> : preview.isPending ? <Loading /> : <PreviewTable columns={preview.data.columns} rows={preview.data.rows} />}
    </section>
  );
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
