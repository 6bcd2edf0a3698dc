import { useState } from 'react';
import { fmtDateTime } from '../../format';
import { href } from '../../router';
import { MAX_NAME_CHARS, type SearchType, useQueryHistory } from '../../stores/query-history';

const runHref = (query: string, type: SearchType) => href('/search', { q: query, type });

/** Saving the query on screen under a name. */
export function SaveQuery({ query, type }: { query: string; type: SearchType }) {
  const save = useQueryHistory((s) => s.save);
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  if (name === null) {
    return (
      <span className="save-query">
        <button type="button" className="subtle small" onClick={() => { setName(query.slice(0, MAX_NAME_CHARS)); setSaved(null); }}>
          Save query
        </button>
        {saved ? <span className="muted small" role="status"> Saved as “{saved}”.</span> : null}
      </span>
    );
  }
  // Not a <form>: it sits inside the search form, and a nested form's submit would run the search.
  const submit = () => {
    const problem = save(name, query, type, Date.now());
    setError(problem);
    if (!problem) {
      setSaved(name.trim());
      setName(null);
    }
  };
  return (
    <div className="row-form save-query">
      <label>
        <span className="sr-only">Name of the saved query</span>
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            } else if (e.key === 'Escape') setName(null);
          }}
          aria-label="Name of the saved query"
          maxLength={MAX_NAME_CHARS + 20}
          autoFocus
        />
      </label>
      <button type="button" className="small" onClick={submit}>Save</button>
      <button type="button" className="subtle small" onClick={() => { setName(null); setError(null); }}>Cancel</button>
      {error ? <span className="error-text small" role="alert">{error}</span> : null}
    </div>
  );
}

/** Saved and recent queries: a click runs one again. */
export function QueryShelf() {
  const { saved, recent, remove, clearRecent } = useQueryHistory();
  return (
    <div className="query-shelf" aria-label="Saved and recent queries" role="region">
      <section>
        <h3 className="small-heading">Saved queries</h3>
        {saved.length === 0 ? (
          <p className="muted small">None yet: “Save query” under a search keeps it here.</p>
        ) : (
          <ul className="query-list" aria-label="Saved queries">
            {saved.map((s) => (
              <li key={s.name}>
                <a href={runHref(s.query, s.type)} title={s.query}>{s.name}</a>
                <code className="muted small truncate">{s.query}{s.type === 'Top' ? ' (Top)' : ''}</code>
                <button type="button" className="link small" aria-label={`Delete saved query ${s.name}`} onClick={() => remove(s.name)}>Delete</button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h3 className="small-heading">
          Recent searches{' '}
          {recent.length > 0 ? <button type="button" className="link small" onClick={clearRecent}>Clear</button> : null}
        </h3>
        {recent.length === 0 ? (
          <p className="muted small">Searches you run appear here (the last 50, on this machine).</p>
        ) : (
          <ul className="query-list" aria-label="Recent searches">
            {recent.map((r) => (
              <li key={`${r.type}:${r.query}`}>
                <a href={runHref(r.query, r.type)}><code>{r.query}</code>{r.type === 'Top' ? ' (Top)' : ''}</a>
                <span className="muted small">{fmtDateTime(r.at_ms)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
