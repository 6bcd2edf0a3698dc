import type { UpstreamState, UpstreamTestResult } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { ErrorState, Loading } from '../../components/States';
import { fmtDateTime, fmtInt } from '../../format';
import { SourceForm } from './SourceForm';
import { KEY_INPUT_ID, SourceKey } from './SourceKey';
import { SourceSpend } from './SourceSpend';
import { fmtUsd, itemsAndUsd, keySourceWords, MODES } from './source-words';

/**
 * Sources: the upstream (the SocialData API or another Skein) that reads are fetched from and
 * kept in the corpus, its key's state, a connection test, and what was spent there.
 */
export function SourcesSection() {
  const upstream = useSkein('upstream.get', undefined, { staleTime: 0 });
  const test = useSkeinMutation('upstream.test', ['upstream.get']);
  const state = upstream.data;
  return (
    <section className="card sources" aria-labelledby="sources-title">
      <div className="card-head">
        <h2 id="sources-title">Sources</h2>
        <button type="button" className="subtle" onClick={() => test.mutate(undefined)} disabled={!state?.config || test.isPending}>
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      <p className="muted small">
        Beyond your corpus, reads can come from an upstream: the SocialData API, or another Skein. What is fetched is kept in
        your corpus, so a second read of it costs nothing.
      </p>
      {upstream.error ? <ErrorState error={upstream.error} /> : !state ? <Loading /> : (
        <>
          {state.key.status === 'invalid' ? (
            <div className="state error-state" role="alert" data-testid="key-invalid">
              <strong>The upstream refused the API key</strong>
              <p>{state.key.message}</p>
              <p className="muted">Reads that need the upstream fail until a valid key is given{state.key.checked_ms ? ` (checked ${fmtDateTime(state.key.checked_ms)})` : ''}.</p>
              {state.key.store !== 'none' ? (
                <button type="button" className="subtle small" onClick={() => document.getElementById(KEY_INPUT_ID)?.focus()}>Enter a new key</button>
              ) : null}
            </div>
          ) : null}
          <SourceFacts state={state} />
          {test.data ? <TestResult result={test.data} /> : test.error ? <ErrorState error={test.error} /> : null}
          <h3>Connection</h3>
          <SourceForm state={state} />
          <h3>API key</h3>
          <SourceKey state={state} onSaved={() => test.mutate(undefined)} />
          <h3>Spending at the upstream</h3>
          <SourceSpend state={state} />
        </>
      )}
    </section>
  );
}

function SourceFacts({ state }: { state: UpstreamState }) {
  const { config, key } = state;
  const mode = MODES.find((m) => m.value === (config?.mode ?? 'offline'))!;
  return (
    <dl className="facts source-facts">
      <div>
        <dt>Upstream</dt>
        <dd data-testid="source-url">{config ? <><code className="wrap">{config.url}</code> <span className="muted small">({config.profile})</span></> : 'None: reads use only your corpus'}</dd>
      </div>
      <div>
        <dt>Mode</dt>
        <dd data-testid="source-mode">{config ? mode.title : 'Offline'}</dd>
      </div>
      <div>
        <dt>API key</dt>
        <dd data-testid="key-status">
          {key.present ? (
            <>
              <code>{key.masked}</code> <span className="muted small">{keySourceWords(key)}</span>{' '}
              <span className={`state-badge ${key.status === 'valid' ? 'success' : key.status === 'invalid' ? 'error' : ''}`}>{key.status === 'unknown' ? 'not checked' : key.status}</span>
            </>
          ) : 'None'}
        </dd>
      </div>
      <div>
        <dt>Budget</dt>
        <dd data-testid="source-budget">{state.budget ? `${itemsAndUsd(state.budget.items, state.budget.usd)}` : 'None'}</dd>
      </div>
    </dl>
  );
}

/** The upstream's own balance beside Skein's figures, or why the test failed. */
function TestResult({ result }: { result: UpstreamTestResult }) {
  // A refused key is already the alert at the top of the section, with the same words.
  if (!result.ok && result.kind === 'key_invalid') return null;
  if (!result.ok) {
    return (
      <div className="state error-state" role="alert" data-testid="test-result">
        <strong>The connection test failed</strong>
        <p>{result.message}</p>
      </div>
    );
  }
  const { balance, state } = result;
  const shown = balance.unit === 'usd' ? fmtUsd(balance.amount) : `${fmtInt(balance.amount)} credits`;
  const other = balance.unit === 'usd' ? `≈ ${fmtInt(result.balance_items)} items` : `≈ ${fmtUsd(result.balance_usd)}`;
  return (
    <div className="state test-ok" role="status" data-testid="test-result">
      <strong>Connected: the upstream accepts the key</strong>
      <dl className="figures inline">
        <div><dt>Upstream balance (its own count)</dt><dd data-testid="upstream-balance">{shown} <span className="muted small">{other}</span></dd></div>
        <div><dt>Skein spent there this month</dt><dd data-testid="our-month">{itemsAndUsd(state.spend.month.items, state.spend.month.usd)}</dd></div>
        <div>
          <dt>Skein&apos;s budget left</dt>
          <dd data-testid="our-budget">{state.budget ? itemsAndUsd(state.budget.left_items, state.budget.left_usd) : 'no budget set'}</dd>
        </div>
      </dl>
    </div>
  );
}
