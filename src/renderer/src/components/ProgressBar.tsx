export function ProgressBar({ value, total, label }: { value: number; total: number | null; label: string }) {
  const pct = total && total > 0 ? Math.min(100, (value / total) * 100) : null;
  return (
    <div
      className={`progress ${pct === null ? 'indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total ?? undefined}
      aria-valuenow={value}
    >
      <div className="progress-fill" style={{ width: pct === null ? '30%' : `${pct}%` }} />
    </div>
  );
}
