import { type ReactNode, useRef } from 'react';
import { type EngineError, explain, UnreachableError } from '../api/errors';
import { useFirstWaiting } from './first-waiting';

export function Loading({ label = 'Loading…', lines = 3 }: { label?: string; lines?: number }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="skeleton" />
      ))}
    </div>
  );
}

/** The banner at the top is the one alert; a part asked for while the server is away only waits. */
function WaitingState() {
  const ref = useRef<HTMLDivElement>(null);
  const first = useFirstWaiting(ref);
  return (
    <div ref={ref} className="waiting-part">
      {first ? (
        <div className="state waiting-state" role="status">
          <strong>Waiting for Skein</strong>
          <p className="muted">What this page shows comes back once Skein answers.</p>
        </div>
      ) : (
        <Loading label="Waiting for Skein" lines={2} />
      )}
    </div>
  );
}

export function ErrorState({ error, action }: { error: EngineError; action?: ReactNode }) {
  if (error instanceof UnreachableError) return <WaitingState />;
  const { title, hint } = explain(error);
  return (
    <div className={`state error-state ${error.code === 'unavailable' ? 'unavailable' : ''}`} role="alert">
      <strong>{title}</strong>
      <p>{error.message}</p>
      {hint ? <p className="muted">{hint}</p> : null}
      {action}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state empty-state">
      <strong>{title}</strong>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}

/** Standard handling of a query's three states. */
export function QueryView<T>({
  query,
  children,
  loading,
}: {
  query: { data?: T; error: EngineError | null; isPending: boolean };
  children: (data: T) => ReactNode;
  loading?: ReactNode;
}) {
  if (query.error) return <ErrorState error={query.error} />;
  if (query.isPending || query.data === undefined) return <>{loading ?? <Loading />}</>;
  return <>{children(query.data)}</>;
}
