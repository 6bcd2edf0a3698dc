import { useQuery } from '@tanstack/react-query';
import { type DragEvent, useRef, useState } from 'react';
import type { ImportProgress } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { useImportFiles } from '../../api/import';
import { ErrorState } from '../../components/States';
import { fmtBytes } from '../../format';
import { href } from '../../router';
import { useImportEncoding } from '../../stores/import-encoding';
import { ImportReport } from './ImportReport';

/** Data: where it lives, and importing files by dropping them or picking them. */
export function DataSection() {
  const info = useSkein('app.info', undefined, { staleTime: 0 });
  const imports = useQuery<ImportProgress[]>({ queryKey: ['imports'], queryFn: () => [], staleTime: Infinity, initialData: [] });
  const [over, setOver] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const { importFiles, reading: uploading, error: importError } = useImportFiles();
  const encoding = useImportEncoding((s) => s.encoding);
  const setEncoding = useImportEncoding((s) => s.setEncoding);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void importFiles(Array.from(e.dataTransfer.files));
  };
  return (
    <section className="card" aria-labelledby="data-title">
      <h2 id="data-title">Data</h2>
      <p className="muted small">Tip: drop files anywhere on the window to import them.</p>
      {info.data ? (
        <dl className="facts">
          <div><dt>Data dir</dt><dd><code className="wrap" data-testid="data-dir">{info.data.data_dir}</code></dd></div>
          <div><dt>Database</dt><dd>{fmtBytes(info.data.db_bytes)}</dd></div>
          <div><dt>Local API</dt><dd><code>{info.data.api_url ?? '—'}</code></dd></div>
          <div><dt>Mode</dt><dd>{info.data.mode === 'desktop' ? 'Desktop app' : 'Headless (browser)'}</dd></div>
          <div className="full-row">
            <dt>Keychain</dt>
            <dd data-testid="keychain" className={info.data.keychain.available ? undefined : 'warning-text'}>
              {info.data.keychain.available ? 'Available' : 'Not available'}
              <span className="muted small"> · {info.data.keychain.message}</span>
            </dd>
          </div>
        </dl>
      ) : info.error ? <ErrorState error={info.error} /> : null}
      {info.data?.holds_demo_data ? (
        <p className="small warning-text" data-testid="demo-data-note">
          The corpus holds the demo data (fictional users and posts). What you import goes in beside it, into every search, overview and
          export: <a href={href('/')}>Home › Remove the demo data</a> takes it out.
        </p>
      ) : null}
      <div
        className={`drop-zone ${over ? 'over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>
          Drop files here to import them: the service's JSON, Twitter API v1.1 or v2 (twarc) JSON Lines, or your X archive (zip).
        </p>
        <button type="button" onClick={() => picker.current?.click()}>Choose files…</button>
        <input ref={picker} type="file" multiple hidden onChange={(e) => void importFiles(Array.from(e.target.files ?? []))} aria-label="Files to import" />
        {uploading ? <p className="muted small">Reading {uploading}…</p> : null}
      </div>
      <div className="import-encoding">
        <span className="small" id="import-encoding-label">Files that are not UTF-8:</span>
        <fieldset className="segmented" aria-labelledby="import-encoding-label">
          <label className={encoding === 'utf8' ? 'on' : ''}>
            <input type="radio" name="import-encoding" value="utf8" checked={encoding === 'utf8'} onChange={() => setEncoding('utf8')} />
            Refuse them
          </label>
          <label className={encoding === 'latin1' ? 'on' : ''}>
            <input type="radio" name="import-encoding" value="latin1" checked={encoding === 'latin1'} onChange={() => setEncoding('latin1')} />
            Read them as Latin-1
          </label>
        </fieldset>
        <span className="muted small">UTF-8 files and files with a byte-order mark are read as they are either way.</span>
      </div>
      {importError ? <ErrorState error={importError} /> : null}
      {imports.data.length ? (
        <ul className="imports" aria-label="Imports">
          {imports.data.map((p) => <ImportReport key={p.import_id} p={p} />)}
        </ul>
      ) : null}
    </section>
  );
}
