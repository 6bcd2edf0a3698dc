import { useEffect, useState } from 'react';
import type { RetentionArgs, RetentionResult, RetentionState } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { ErrorState } from '../../components/States';
import { fmtBytes, fmtInt } from '../../format';
import { useUi } from '../../stores/ui';

type Choice = RetentionArgs['keep'];

function choiceOf(state: RetentionState): { keep: Choice; days: string; gb: string } {
  const p = state.policy;
  return {
    keep: p.keep === 'size' ? 'gb' : p.keep,
    days: p.keep === 'days' ? String(p.days) : '30',
    gb: p.keep === 'size' ? String(Number(p.gb.toFixed(2))) : '10',
  };
}

const plural = (n: number, one: string, many: string) => `${fmtInt(n)} ${n === 1 ? one : many}`;

/**
 * Exports > Keep files: how long finished data files stay (server-side: Skein applies it at start,
 * every hour and after each job). Saving a setting that deletes files now asks first, naming how
 * many and how much; the jobs and their ledger charges stay.
 */
export function RetentionSection() {
  const state = useSkein('exports.retention', undefined, { staleTime: 0 });
  const save = useSkeinMutation('exports.setRetention', ['exports.retention', 'exports.list', 'jobs.list']);
  const toast = useUi((s) => s.toast);
  const [form, setForm] = useState<{ keep: Choice; days: string; gb: string } | null>(null);
  const [asking, setAsking] = useState<RetentionResult | null>(null);
  useEffect(() => {
    if (state.data && form === null) setForm(choiceOf(state.data));
  }, [state.data, form]);
  if (state.error) return <ErrorState error={state.error} />;
  if (!state.data || !form) return null;
  const current = choiceOf(state.data);
  const changed = form.keep !== current.keep || (form.keep === 'days' && form.days !== current.days) || (form.keep === 'gb' && form.gb !== current.gb);
  const args = (dry_run: boolean): RetentionArgs =>
    form.keep === 'days' ? { keep: 'days', days: Number(form.days), dry_run } : form.keep === 'gb' ? { keep: 'gb', gb: Number(form.gb), dry_run } : { keep: 'all', dry_run };
  const apply = () =>
    save.mutate(args(false), {
      onSuccess: (r) => {
        const freed = r.deleted.reduce((s, d) => s + d.bytes, 0);
        toast(`Saved: ${r.state.policy_text}.${r.deleted.length ? ` Deleted ${plural(r.deleted.length, 'file', 'files')} (${fmtBytes(freed)}); the jobs and their charges stay.` : ''}`, 'ok');
        setForm(choiceOf(r.state));
      },
      onSettled: () => setAsking(null),
    });
  const check = () =>
    save.mutate(args(true), {
      onSuccess: (r) => (r.deleted.length ? setAsking(r) : apply()),
    });
  const option = (keep: Choice, label: string) => (
    <label className={form.keep === keep ? 'on' : ''}>
      <input type="radio" name="retention" value={keep} checked={form.keep === keep} onChange={() => { setForm({ ...form, keep }); setAsking(null); }} />
      {label}
    </label>
  );
  const dueBytes = asking ? asking.deleted.reduce((s, d) => s + d.bytes, 0) : 0;
  return (
    <section className="card" aria-labelledby="retention-title">
      <h2 id="retention-title">Keep files</h2>
      <div className="retention-form">
        <fieldset className="segmented" aria-label="Keep finished files">
          {option('all', 'Every file')}
          {option('days', 'For some days')}
          {option('gb', 'Up to a size')}
        </fieldset>
        {form.keep === 'days' ? (
          <label className="check">
            <input type="number" min={1} max={36500} step={1} aria-label="Days to keep a file" value={form.days} onChange={(e) => setForm({ ...form, days: e.target.value })} />
            days
          </label>
        ) : null}
        {form.keep === 'gb' ? (
          <label className="check">
            <input type="number" min={0.01} step={0.5} aria-label="GB of files to keep" value={form.gb} onChange={(e) => setForm({ ...form, gb: e.target.value })} />
            GB
          </label>
        ) : null}
        <button type="button" disabled={!changed || save.isPending} onClick={check}>{save.isPending && !asking ? 'Checking…' : 'Save'}</button>
      </div>
      <p className="muted small">
        Now: <strong>{state.data.policy_text}</strong>; {plural(state.data.files, 'file', 'files')} in the exports folder, {fmtBytes(state.data.bytes)}. For some
        days: a file is deleted that many days after its job finished. Up to a size: the newest files are kept within that many GB (1 GB = 1024 MiB),
        the oldest deleted first, and the newest file always stays. Skein applies this when it starts, every hour and after each job; a file being
        downloaded waits for the next round. A deleted file keeps its row here and its job; the ledger keeps every charge.
      </p>
      {asking ? (
        <div className="retry-confirm delete-confirm" role="alertdialog" aria-label="Delete files now" data-testid="retention-confirm">
          <span className="estimate">
            Saving this deletes {plural(asking.deleted.length, 'file', 'files')} now ({fmtBytes(dueBytes)}), the oldest first:{' '}
            <span className="mono">{asking.deleted.slice(0, 3).map((d) => d.file_name).join(', ')}{asking.deleted.length > 3 ? ', …' : ''}</span>. The jobs and their ledger charges stay.
          </span>
          <button type="button" className="danger-fill" disabled={save.isPending} onClick={apply}>{save.isPending ? 'Deleting…' : `Save and delete ${plural(asking.deleted.length, 'file', 'files')}`}</button>
          <button type="button" className="subtle" onClick={() => setAsking(null)}>Cancel</button>
        </div>
      ) : null}
      {save.error ? <ErrorState error={save.error} /> : null}
    </section>
  );
}
