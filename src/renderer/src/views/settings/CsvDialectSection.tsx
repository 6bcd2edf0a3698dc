import type { CsvDialect } from '../../../../shared/contract';
import { CSV_DIALECT_LABELS, useCsvDialect } from '../../stores/csv-dialect';

/** Exports: which CSV dialect a new job's form starts with (csv_dialect). */
export function CsvDialectSection() {
  const dialect = useCsvDialect((s) => s.dialect);
  const setDialect = useCsvDialect((s) => s.setDialect);
  const option = (value: CsvDialect) => (
    <label className={dialect === value ? 'on' : ''}>
      <input type="radio" name="csv-dialect" value={value} checked={dialect === value} onChange={() => setDialect(value)} />
      {CSV_DIALECT_LABELS[value]}
    </label>
  );
  return (
    <section className="card" aria-labelledby="csv-dialect-title">
      <h2 id="csv-dialect-title">CSV files</h2>
      <fieldset className="segmented" aria-label="New CSV jobs are written">
        {option('excel')}
        {option('plain')}
      </fieldset>
      <p className="muted small">
        <strong>For Excel</strong> starts the file with a byte order mark, so Excel shows accents and emoji, and puts an
        apostrophe before any text beginning with <code>=</code> <code>+</code> <code>-</code> <code>@</code>, so Excel shows it
        instead of running it as a formula. That apostrophe is data to pandas and R, and every reply begins with{' '}
        <code>@</code>: <strong>plain</strong> keeps every text exactly as posted. The job form starts with this choice; each job
        can still pick the other one. Scripts choose with <code>csv_dialect</code> (default <code>excel</code>). Kept on this
        computer.
      </p>
    </section>
  );
}
