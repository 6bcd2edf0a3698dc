import type { EngineError } from '../../api/errors';

/** A query the engine refused, the mistake marked where it is (Search and the job form). */
export function QueryError({ q, error }: { q: string; error: EngineError }) {
  const chars = Array.from(q);
  const start = Math.max(0, (error.position?.column ?? 1) - 1);
  const end = Math.min(chars.length, start + Math.max(1, error.position?.length ?? 1));
  return (
    <div className="state error-state" role="alert">
      <strong>The query has a mistake</strong>
      <pre className="query-mirror" aria-label="Query with the mistake marked">
        {chars.slice(0, start).join('')}
        <mark className="query-error">{start >= chars.length ? ' ' : chars.slice(start, end).join('')}</mark>
        {chars.slice(end).join('')}
      </pre>
      <p>{error.message}</p>
    </div>
  );
}
