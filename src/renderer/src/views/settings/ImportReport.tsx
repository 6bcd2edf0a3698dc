import type { ImportFileReport, ImportProgress } from '../../../../shared/contract';
import { ProgressBar } from '../../components/ProgressBar';
import { fmtInt } from '../../format';
import { importCountsText } from './import-counts';

/**
 * One import (issue 15): while it runs, the file being read and a bar; once done, a row per file
 * with the format found, its own counts, and every reason anything was left out, in full and
 * wrapping (a reason cut to a column's width cannot be acted on).
 */
export function ImportReport({ p }: { p: ImportProgress }) {
  const shown = p.done ? p.files.length : 0;
  return (
    <li className="import-report" aria-label={`Import of ${p.file}`}>
      <div className="import-head">
        <span className="mono wrap" title={p.file}>{p.file}</span>
        <ProgressBar value={p.done ? 1 : p.bytes_done} total={p.done ? 1 : p.bytes_total || null} label={`Import of ${p.file}`} />
        <span className="small">
          {p.done
            ? importCountsText(p, ' · ')
            : `${fmtInt(p.records)} records read…`}
          {p.error ? <span className="error-text"> · {p.error}</span> : p.done ? ' · done' : ''}
        </span>
      </div>
      {shown ? (
        <table className="import-files" aria-label="Imported files">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Found</th>
              <th scope="col" className="num">Records</th>
              <th scope="col" className="num">Added</th>
              <th scope="col" className="num">Updated</th>
              <th scope="col" className="num">Skipped</th>
              <th scope="col" className="num">Refused</th>
            </tr>
          </thead>
          <tbody>{p.files.map((f, i) => <FileRows key={`${f.file}-${i}`} f={f} />)}</tbody>
        </table>
      ) : null}
    </li>
  );
}

function FileRows({ f }: { f: ImportFileReport }) {
  const why = f.reasons.length > 0 || f.problems.length > 0;
  return (
    <>
      <tr className={`import-file${f.imported ? '' : ' refused'}`} data-testid="import-file">
        <th scope="row" className="mono wrap">{f.file}</th>
        <td className={f.imported ? 'wrap' : 'wrap error-text'}>{f.format}</td>
        <td className="num">{fmtInt(f.records)}</td>
        <td className="num">{fmtInt(f.added)}</td>
        <td className="num">{fmtInt(f.updated)}</td>
        <td className="num">{fmtInt(f.skipped)}</td>
        <td className={`num${f.refused ? ' error-text' : ''}`}>{fmtInt(f.refused)}</td>
      </tr>
      {why ? (
        <tr className="import-why">
          <td colSpan={7}>
            {f.reasons.length ? (
              <ul className="import-reasons" aria-label={`Why records of ${f.file} were left out`}>
                {f.reasons.map((r) => <li key={r.reason}><strong>{fmtInt(r.count)}</strong> {r.reason}</li>)}
              </ul>
            ) : null}
            {f.problems.length ? (
              <ul className="import-problems" aria-label={`Problems in ${f.file}`}>
                {f.problems.map((pr, i) => (
                  <li key={i}><span className="mono">{pr.line ? `line ${pr.line}` : 'no line'}</span>: {pr.message}</li>
                ))}
                {f.more_problems ? <li className="muted">and {fmtInt(f.more_problems)} more problems in this file</li> : null}
              </ul>
            ) : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}
