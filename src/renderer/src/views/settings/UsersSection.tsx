import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { ApiUserRow, LedgerEntry } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { DataTable } from '../../components/DataTable';
import { ErrorState, Loading } from '../../components/States';
import { fmtDateTime, fmtInt, DATE_TIME_PX } from '../../format';
import { useUi } from '../../stores/ui';

const userCol = createColumnHelper<ApiUserRow>();
const ledgerCol = createColumnHelper<LedgerEntry>();

/** Users, their balances, rate limits and ledgers. */
export function UsersSection() {
  const users = useSkein('users.list', undefined, { staleTime: 0 });
  const selectedId = useUi((s) => s.settingsUserId);
  const select = useUi((s) => s.setSettingsUserId);
  useEffect(() => {
    if (selectedId === null && users.data?.length) select(users.data[0]!.id);
  }, [users.data, selectedId, select]);
  const columns = useMemo(
    () =>
      [
        userCol.accessor('name', { header: 'User', size: 140, cell: (c) => <>{c.getValue()}{c.row.original.builtin ? <span className="kind-tag">built-in</span> : null}</> }),
        userCol.accessor((u) => u.balance?.available ?? null, { id: 'available', header: 'Available', size: 100, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue() as number | null) }),
        userCol.accessor((u) => u.balance?.pending ?? null, { id: 'held', header: 'Held', size: 80, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue() as number | null) }),
        userCol.accessor('per_minute_limit', { header: 'Limit / min', size: 100, meta: { numeric: true } }),
        userCol.accessor('webhook_url', { header: 'Webhook', size: 200, meta: { grow: true }, cell: (c) => <span className="truncate mono">{c.getValue() ?? '—'}</span> }),
      ] as ColumnDef<ApiUserRow, unknown>[],
    [],
  );
  const selected = users.data?.find((u) => u.id === selectedId) ?? null;
  return (
    <section className="card" aria-labelledby="users-title">
      <h2 id="users-title">Credits and rate limits</h2>
      {users.error ? <ErrorState error={users.error} /> : (
        <DataTable label="API users" data={users.data ?? []} columns={columns} getRowId={(u) => String(u.id)} onOpen={(u) => select(u.id)} height={200} empty="No users." />
      )}
      {selected ? <UserDetail user={selected} /> : null}
    </section>
  );
}

function UserDetail({ user }: { user: ApiUserRow }) {
  const ledger = useSkein('credits.ledger', { user_id: user.id }, { staleTime: 0 });
  const grant = useSkeinMutation('credits.grant', ['credits.ledger', 'users.list']);
  const setLimit = useSkeinMutation('users.setLimit', ['users.list']);
  const [amount, setAmount] = useState('1000');
  const [limit, setLimitDraft] = useState(String(user.per_minute_limit));
  useEffect(() => setLimitDraft(String(user.per_minute_limit)), [user.per_minute_limit]);
  const columns = useMemo(
    () =>
      [
        ledgerCol.accessor('created_ms', { header: 'When', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        ledgerCol.accessor('kind', { header: 'Kind', size: 100 }),
        ledgerCol.accessor('status', { header: 'Status', size: 90 }),
        ledgerCol.accessor('amount', { header: 'Change', size: 100, meta: { numeric: true }, cell: (c) => <Signed n={c.getValue()} /> }),
        ledgerCol.accessor('held', { header: 'Held', size: 90, meta: { numeric: true }, cell: (c) => <Signed n={c.getValue()} muted /> }),
        ledgerCol.accessor('available_after', { header: 'Available', size: 110, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue()) }),
        ledgerCol.accessor('upstream_items', {
          header: 'Upstream',
          size: 100,
          meta: { numeric: true },
          cell: (c) => (c.getValue() ? fmtInt(c.getValue()) : ''),
        }),
        ledgerCol.accessor('memo', { header: 'For', size: 200, meta: { grow: true }, cell: (c) => <span className="truncate">{c.getValue()}</span> }),
      ] as ColumnDef<LedgerEntry, unknown>[],
    [],
  );
  const onGrant = (e: FormEvent) => {
    e.preventDefault();
    grant.mutate({ user_id: user.id, amount: Number(amount) });
  };
  const onLimit = (e: FormEvent) => {
    e.preventDefault();
    setLimit.mutate({ user_id: user.id, per_minute: Number(limit) });
  };
  return (
    <div className="user-detail">
      <h3>{user.name}</h3>
      <div className="row-form wrap">
        <form className="row-form" onSubmit={onGrant}>
          <label><span className="label">Grant credits</span><input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="numeric" aria-label="Credits to grant" /></label>
          <button type="submit" disabled={grant.isPending}>Grant</button>
        </form>
        <form className="row-form" onSubmit={onLimit}>
          <label><span className="label">Requests per minute</span><input value={limit} onChange={(e) => setLimitDraft(e.target.value)} inputMode="numeric" aria-label="Requests per minute" /></label>
          <button type="submit" disabled={setLimit.isPending}>Save limit</button>
        </form>
      </div>
      {grant.error ? <ErrorState error={grant.error} /> : null}
      {setLimit.error ? <ErrorState error={setLimit.error} /> : null}
      {ledger.error ? <ErrorState error={ledger.error} /> : ledger.isPending ? <Loading /> : (
        <>
          <dl className="figures inline">
            <div><dt>Posted balance</dt><dd>{fmtInt(ledger.data.balance.posted)}</dd></div>
            <div><dt>Held by jobs</dt><dd>{fmtInt(ledger.data.balance.pending)}</dd></div>
            <div><dt>Available</dt><dd data-testid="available-credits">{fmtInt(ledger.data.balance.available)}</dd></div>
            {ledger.data.upstream_items > 0 ? (
              <div title="What the upstream billed for this user's requests, paid by the ledger's upstream account (not by this balance)">
                <dt>Upstream items</dt><dd data-testid="upstream-items">{fmtInt(ledger.data.upstream_items)}</dd>
              </div>
            ) : null}
          </dl>
          <DataTable label={`Ledger of ${user.name}`} data={ledger.data.entries} columns={columns} getRowId={(e) => e.id} height={240} empty="No transfers yet." />
        </>
      )}
    </div>
  );
}

function Signed({ n, muted }: { n: number; muted?: boolean }) {
  if (n === 0) return <span className="muted">—</span>;
  return <span className={muted ? 'muted' : n < 0 ? 'neg' : 'pos'}>{n > 0 ? '+' : ''}{fmtInt(n)}</span>;
}
