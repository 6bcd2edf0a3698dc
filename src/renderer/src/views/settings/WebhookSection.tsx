import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { InboxEntry, WebhookDelivery } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { DataTable } from '../../components/DataTable';
import { ErrorState } from '../../components/States';
import { RawJson } from '../../components/RawJson';
import { fmtDateTime, DATE_TIME_PX } from '../../format';
import { useUi } from '../../stores/ui';
import { WebhookSecret } from './WebhookSecret';

const deliveryCol = createColumnHelper<WebhookDelivery>();
const inboxCol = createColumnHelper<InboxEntry>();

/** The webhook URL of a user, its recent deliveries, and the inbox that can receive them. */
export function WebhookSection() {
  const users = useSkein('users.list', undefined);
  const inbox = useSkein('inbox.get', undefined, { staleTime: 0 });
  const selectedId = useUi((s) => s.settingsUserId);
  const user = users.data?.find((u) => u.id === selectedId) ?? users.data?.[0] ?? null;
  const deliveries = useSkein('webhooks.deliveries', user ? { user_id: user.id } : {}, { enabled: user !== null, staleTime: 0 });
  const save = useSkeinMutation('webhooks.set', ['users.list']);
  const test = useSkeinMutation('webhooks.test', ['inbox.get']);
  const toast = useUi((s) => s.toast);
  const [url, setUrl] = useState('');
  const [openEntry, setOpenEntry] = useState<number | null>(null);
  const shown = inbox.data?.entries.find((e) => e.id === openEntry) ?? null;
  useEffect(() => setUrl(user?.webhook_url ?? ''), [user?.webhook_url, user?.id]);

  const deliveryColumns = useMemo(
    () =>
      [
        deliveryCol.accessor('sent_ms', { header: 'Sent', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        deliveryCol.accessor('job_id', { header: 'Job', size: 60, meta: { numeric: true } }),
        deliveryCol.accessor('ok', { header: 'Result', size: 110, cell: (c) => <span className={`state-badge ${c.getValue() ? 'success' : 'error'}`}>{c.getValue() ? 'delivered' : 'failed'}</span> }),
        deliveryCol.accessor('status_code', { header: 'HTTP', size: 60, meta: { numeric: true }, cell: (c) => c.getValue() ?? '—' }),
        deliveryCol.accessor('duration_ms', { header: 'Time', size: 90, meta: { numeric: true }, cell: (c) => (c.getValue() === null ? '—' : `${c.getValue()} ms`) }),
        deliveryCol.accessor((d) => d.error ?? d.url, { id: 'detail', header: 'URL / error', size: 200, meta: { grow: true }, cell: (c) => <span className="truncate" title={String(c.getValue())}>{String(c.getValue())}</span> }),
      ] as ColumnDef<WebhookDelivery, unknown>[],
    [],
  );
  const inboxColumns = useMemo(
    () =>
      [
        inboxCol.accessor('received_ms', { header: 'Received', size: DATE_TIME_PX, cell: (c) => fmtDateTime(c.getValue()) }),
        inboxCol.accessor('body', { header: 'Body', size: 300, meta: { grow: true }, cell: (c) => <code className="truncate" title={c.getValue()}>{c.getValue()}</code> }),
      ] as ColumnDef<InboxEntry, unknown>[],
    [],
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!user) return;
    test.reset();
    save.mutate(
      { user_id: user.id, url: url.trim() || null },
      { onSuccess: (u) => toast(u.webhook_url ? `Saved: jobs of ${u.name} are announced at ${u.webhook_url}.` : `Saved: jobs of ${u.name} are not announced.`, 'ok') },
    );
  };
  const saved = user?.webhook_url ?? null;
  return (
    <section className="card" aria-labelledby="webhook-title">
      <h2 id="webhook-title">Webhook</h2>
      <p className="muted small">
        When a job of {user ? <strong>{user.name}</strong> : 'the selected user'} ends, Skein POSTs <code>{'{"event":"job_finished","data":…}'}</code> here once (never retried).
      </p>
      <form className="row-form" onSubmit={submit}>
        <label className="grow">
          <span className="label">Webhook URL</span>
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.org/hook" aria-label="Webhook URL" />
        </label>
        {inbox.data?.url ? <button type="button" className="subtle" onClick={() => setUrl(inbox.data.url ?? '')}>Use the inbox</button> : null}
        <button type="submit" disabled={!user || save.isPending}>Save</button>
        <button
          type="button"
          className="subtle"
          disabled={!user || !saved || url.trim() !== saved || test.isPending}
          title={saved ? `POST a test event to ${saved}` : 'Save a URL first'}
          onClick={() => user && test.mutate({ user_id: user.id })}
        >
          {test.isPending ? 'Sending…' : 'Send a test event'}
        </button>
      </form>
      {save.error ? <ErrorState error={save.error} /> : null}
      {test.error ? <ErrorState error={test.error} /> : null}
      {test.data ? (
        <p className={`small ${test.data.ok ? 'ok-text' : 'error-text'}`} role="status" data-testid="webhook-test-result">
          {test.data.ok
            ? `The receiver answered HTTP 200 in ${test.data.duration_ms} ms: deliveries will count as delivered.`
            : `Not delivered: ${test.data.error ?? `HTTP ${test.data.http_status}`}`}{' '}
          {test.data.signed ? 'The call was signed (X-Skein-Signature).' : 'The call was not signed (no secret).'} A test event is <code>{'{"event":"test",…}'}</code> and is not listed under deliveries.
        </p>
      ) : null}
      {user ? <WebhookSecret user={user} /> : null}
      <h3>Recent deliveries</h3>
      {deliveries.error ? <ErrorState error={deliveries.error} /> : (
        <DataTable label="Webhook deliveries" data={deliveries.data ?? []} columns={deliveryColumns} getRowId={(d) => String(d.id)} height={200} empty="No deliveries yet." />
      )}
      <h3>Inbox</h3>
      <p className="muted small">A receiver on this machine that records whatever is POSTed to it{inbox.data?.url ? <>: <code>{inbox.data.url}</code></> : null}.</p>
      {inbox.error ? <ErrorState error={inbox.error} /> : (
        <DataTable label="Webhook inbox" data={inbox.data?.entries ?? []} columns={inboxColumns} getRowId={(e) => String(e.id)} height={200} empty="Nothing received yet." onOpen={(e) => setOpenEntry(e.id)} />
      )}
      {shown ? <RawJson json={shown.body} title={`Received ${fmtDateTime(shown.received_ms)}`} /> : null}
    </section>
  );
}
