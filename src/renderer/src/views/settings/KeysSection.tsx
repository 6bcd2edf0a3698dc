import { type FormEvent, useMemo, useState } from 'react';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { ApiKeyRow } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { useUi } from '../../stores/ui';
import { ConfirmBar } from '../../components/ConfirmBar';
import { DataTable } from '../../components/DataTable';
import { ErrorState } from '../../components/States';
import { fmtDateTime, DATE_TIME_PX } from '../../format';

const col = createColumnHelper<ApiKeyRow>();
// The engine's default opening balance (DEFAULT_OPENING_CREDITS in src/main/engine/keys/create.ts).
const DEFAULT_CREDITS = '100,000';

/** API keys for scripts: create (shown once, with copy), list by prefix, revoke. */
export function KeysSection() {
  const keys = useSkein('keys.list', undefined);
  const users = useSkein('users.list', undefined);
  const create = useSkeinMutation('keys.create', ['keys.list', 'users.list', 'credits.ledger']);
  const revoke = useSkeinMutation('keys.revoke', ['keys.list']);
  const [user, setUser] = useState('analyst');
  const [credits, setCredits] = useState('1000');
  const [copied, setCopied] = useState(false);
  // Revoking cannot be undone: it asks first, naming the key and what stops working.
  const [confirming, setConfirming] = useState<ApiKeyRow | null>(null);
  const toast = useUi((s) => s.toast);
  const columns = useMemo(
    () =>
      [
        col.accessor('prefix', { header: 'Key', size: 170, cell: (c) => <code>{c.getValue()}…</code> }),
        col.accessor('user_name', { header: 'User', size: 120 }),
        col.accessor('created_ms', { header: 'Created', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        col.accessor('last_used_ms', { header: 'Last used', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        col.accessor((k) => (k.revoked_ms ? 'revoked' : 'active'), {
          id: 'state',
          header: 'State',
          size: 90,
          cell: (c) => <span className={`state-badge ${c.getValue() === 'active' ? 'success' : 'error'}`}>{c.getValue()}</span>,
        }),
        col.display({
          id: 'revoke',
          header: '',
          size: 100,
          meta: { grow: true },
          cell: (c) =>
            c.row.original.revoked_ms ? null : (
              <button type="button" className="subtle small danger" onClick={() => setConfirming(c.row.original)} aria-label={`Revoke key ${c.row.original.prefix}`}>
                Revoke
              </button>
            ),
        }),
      ] as ColumnDef<ApiKeyRow, unknown>[],
    [],
  );
  // Starting credits are a new user's whole opening balance; an existing user keeps its balance
  // (the engine refuses credits for it), so the field is off while the name is taken.
  const existing = users.data?.find((u) => u.name.toLowerCase() === user.trim().toLowerCase()) ?? null;
  // "1,000" and "1 000" are read as 1000; anything else but digits is refused here, not sent as NaN
  // (JSON null: the default would apply without a word).
  const creditsText = existing ? '' : credits.replace(/[\s,_]/g, '');
  const creditsBad = creditsText !== '' && !/^\d+$/.test(creditsText);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCopied(false);
    create.mutate({ user: user.trim(), ...(creditsText ? { credits: Number(creditsText) } : {}) });
  };
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted small">Scripts send <code>Authorization: Bearer &lt;key&gt;</code>. A key is shown once; Skein keeps only its hash.</p>
      <form className="row-form" onSubmit={submit}>
        <label>
          <span className="label">User</span>
          <input value={user} onChange={(e) => setUser(e.target.value)} aria-label="Key user" />
        </label>
        <label>
          <span className="label">Starting credits</span>
          <input value={existing ? '' : credits} onChange={(e) => setCredits(e.target.value)} inputMode="numeric" aria-label="Starting credits" placeholder={existing ? 'unchanged' : DEFAULT_CREDITS} disabled={!!existing} />
        </label>
        <button type="submit" disabled={!user.trim() || creditsBad || create.isPending}>Create key</button>
      </form>
      <p className={creditsBad ? 'hint error-text' : 'hint'} data-testid="starting-credits-hint">
        {creditsBad
          ? 'Starting credits are a whole number of credits (0 allowed).'
          : existing
          ? `${existing.name} exists: this adds a key, and its credits stay as they are (grant more under Credits and rate limits).`
          : `A new user starts with exactly the starting credits (0 allowed; empty: ${DEFAULT_CREDITS}).`}
      </p>
      {create.data ? (
        <div className="new-key" role="status">
          <span>New key for this user — copy it now, it will not be shown again:</span>
          <code data-testid="new-key">{create.data.key}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(create.data.key).then(() => setCopied(true))}>{copied ? 'Copied' : 'Copy'}</button>
        </div>
      ) : null}
      {create.error ? <ErrorState error={create.error} /> : null}
      {confirming ? (
        <ConfirmBar
          label={`Revoke key ${confirming.prefix}`}
          action="Revoke key"
          busyAction="Revoking…"
          busy={revoke.isPending}
          onKeep={() => setConfirming(null)}
          onConfirm={() =>
            revoke.mutate({ key_id: confirming.id }, { onSuccess: () => toast(`Revoked ${confirming.prefix}….`, 'ok'), onSettled: () => setConfirming(null) })
          }
        >
          Revoke <code>{confirming.prefix}…</code> of {confirming.user_name}? Scripts using it get 401 at once, and it cannot be undone.
          {keys.data && keys.data.filter((k) => k.user_name === confirming.user_name && !k.revoked_ms).length === 1
            ? ` It is ${confirming.user_name}'s last active key: the data file URLs of ${confirming.user_name}'s jobs stop working too (the files stay in Exports).`
            : ''}
        </ConfirmBar>
      ) : null}
      {revoke.error ? <ErrorState error={revoke.error} /> : null}
      {keys.error ? <ErrorState error={keys.error} /> : (
        <DataTable label="API keys" data={keys.data ?? []} columns={columns} getRowId={(k) => String(k.id)} height={220} empty="No keys yet." />
      )}
    </section>
  );
}
