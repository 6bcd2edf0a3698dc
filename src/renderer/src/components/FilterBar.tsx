import type { ReactNode } from 'react';
import { fmtInt } from '../format';

// The filter bar of a list (Jobs, Exports): a text field, a few choices, and "2 of 14 files".

/** The file formats a job writes, as a filter's choices. */
export const FORMAT_CHOICES: [string, string][] = [
  ['all', 'All formats'],
  ['csv', 'CSV'],
  ['json', 'JSON'],
  ['xlsx', 'XLSX'],
  ['parquet', 'Parquet'],
  ['gexf', 'GEXF'],
];

export function FilterBar({ label, children, shown, total, noun }: { label: string; children: ReactNode; shown: number; total: number; noun: [string, string] }) {
  return (
    <div className="row-form filter-bar" role="search" aria-label={label}>
      {children}
      <span className="muted small filter-count" aria-live="polite">
        {shown === total ? `${fmtInt(total)} ${total === 1 ? noun[0] : noun[1]}` : `${fmtInt(shown)} of ${fmtInt(total)} ${noun[1]}`}
      </span>
    </div>
  );
}

export function FilterText({ label, value, placeholder, onChange }: { label: string; value: string; placeholder: string; onChange: (text: string) => void }) {
  return (
    <label className="grow">
      <span className="label">{label}</span>
      <input type="search" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

export function FilterChoice<V extends string>({ label, value, choices, onChange }: { label: string; value: V; choices: [string, string][]; onChange: (value: V) => void }) {
  return (
    <label>
      <span className="label">{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as V)}>
        {choices.map(([v, words]) => (
          <option key={v} value={v}>{words}</option>
        ))}
      </select>
    </label>
  );
}
