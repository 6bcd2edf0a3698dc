import { type FormEvent, useEffect, useState } from 'react';
import type { FreshKindName, UpstreamModeName, UpstreamProfileName, UpstreamSettingsArgs, UpstreamState } from '../../../../shared/contract';
import { useSkeinMutation } from '../../api/hooks';
import { ErrorState } from '../../components/States';
import { formatDuration, parseDuration } from './durations';
import { FRESH_LABELS, fmtUsd, MODES, PROFILES } from './source-words';

// A new source starts from the real service's published URL and limit and the engine's defaults
// (upstream/config.ts DEFAULT_PER_MINUTE; migration 054 for freshness and the confirmation).
const DEFAULT_URL = 'https://api.socialdata.tools';
const DEFAULT_FRESH_MS: Record<FreshKindName, number> = { post: 86_400_000, page: 900_000, user: 86_400_000, article: 604_800_000, space: 3_600_000 };

interface Draft {
  url: string;
  profile: UpstreamProfileName;
  mode: UpstreamModeName;
  perMinute: string;
  budget: string;
  confirm: string;
  fresh: Record<FreshKindName, string>;
}

function draftOf(state: UpstreamState): Draft {
  const c = state.config;
  const fresh = c?.fresh_ms ?? DEFAULT_FRESH_MS;
  return {
    url: c?.url ?? DEFAULT_URL,
    profile: c?.profile ?? 'socialdata',
    mode: c?.mode ?? 'cache-first',
    perMinute: String(c?.per_minute ?? 120),
    budget: c?.budget_items === null || c === null ? '' : String(c.budget_items),
    confirm: String(c?.confirm_over_items ?? 1000),
    fresh: Object.fromEntries(Object.entries(fresh).map(([k, ms]) => [k, formatDuration(ms)])) as Record<FreshKindName, string>,
  };
}

/** "5,000" and "5 000" are 5000; anything else but digits is refused here, before it is sent. */
const wholeNumber = (text: string): number | null => {
  const t = text.replace(/[\s,_]/g, '');
  return /^\d+$/.test(t) ? Number(t) : null;
};

/** The source's settings: where, which paths, which mode, how fast, how much. */
export function SourceForm({ state }: { state: UpstreamState }) {
  const save = useSkeinMutation('upstream.set', ['upstream.get']);
  const remove = useSkeinMutation('upstream.remove', ['upstream.get']);
  const [draft, setDraft] = useState<Draft>(() => draftOf(state));
  // A saved or removed source (here or by 'skein upstream set') resets the form to what is stored.
  const stamp = state.config?.updated_ms ?? null;
  useEffect(() => setDraft(draftOf(state)), [stamp]);
  const put = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  const perMinute = wholeNumber(draft.perMinute);
  const budget = draft.budget.trim() === '' ? null : wholeNumber(draft.budget);
  const budgetBad = draft.budget.trim() !== '' && budget === null;
  const confirm = wholeNumber(draft.confirm);
  const fresh = Object.fromEntries(Object.entries(draft.fresh).map(([k, t]) => [k, parseDuration(t)])) as Record<FreshKindName, number | null>;
  const freshBad = Object.values(fresh).some((ms) => ms === null);
  const bad = perMinute === null || perMinute < 1 || budgetBad || confirm === null || freshBad || draft.url.trim() === '';
  const price = state.price_per_item_usd;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (bad) return;
    const args: UpstreamSettingsArgs = {
      url: draft.url.trim(), profile: draft.profile, mode: draft.mode, per_minute: perMinute!, budget_items: budget,
      confirm_over_items: confirm!, fresh_ms: fresh as Record<FreshKindName, number>,
    };
    save.mutate(args);
  };
  return (
    <form onSubmit={submit} aria-label="Upstream source settings">
      <div className="form-grid">
        <label className="field wide">
          <span className="label">Upstream URL</span>
          <input value={draft.url} onChange={(e) => put('url', e.target.value)} placeholder={DEFAULT_URL} aria-label="Upstream URL" spellCheck={false} />
        </label>
        <label className="field">
          <span className="label">Profile</span>
          <select value={draft.profile} onChange={(e) => put('profile', e.target.value as UpstreamProfileName)} aria-label="Upstream profile">
            {PROFILES.map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
          </select>
          <span className="hint">{draft.profile === 'socialdata' ? "The real service's /twitter paths." : "The spec's /social paths, as a Skein serves them."}</span>
        </label>
        <label className="field">
          <span className="label">Upstream requests a minute</span>
          <input value={draft.perMinute} onChange={(e) => put('perMinute', e.target.value)} inputMode="numeric" aria-label="Upstream requests a minute" />
          <span className={perMinute === null || perMinute < 1 ? 'hint error-text' : 'hint'}>All reads and jobs share it; the real service allows 120.</span>
        </label>
        <label className="field">
          <span className="label">Budget (items)</span>
          <input value={draft.budget} onChange={(e) => put('budget', e.target.value)} inputMode="numeric" placeholder="no budget" aria-label="Budget in items" />
          <span className={budgetBad ? 'hint error-text' : 'hint'} data-testid="budget-usd">
            {budgetBad ? 'A whole number of items, or empty for no budget.' : budget === null ? 'Empty: no limit on spending.' : `= ${fmtUsd(budget * price)} at ${fmtUsd(price)} an item`}
          </span>
        </label>
        <label className="field">
          <span className="label">Ask before jobs over (items)</span>
          <input value={draft.confirm} onChange={(e) => put('confirm', e.target.value)} inputMode="numeric" aria-label="Ask before jobs over" />
          <span className={confirm === null ? 'hint error-text' : 'hint'}>{confirm === null ? 'A whole number of items.' : `A job that may fetch more (${fmtUsd(confirm * price)}) asks first.`}</span>
        </label>
        <fieldset className="field wide choice-list" aria-label="Upstream mode">
          <legend className="label">Mode</legend>
          {MODES.map((m) => (
            <label key={m.value} className={`choice ${draft.mode === m.value ? 'on' : ''}`}>
              <input type="radio" name="upstream-mode" value={m.value} checked={draft.mode === m.value} onChange={() => put('mode', m.value)} />
              <span><strong>{m.title}</strong> <span className="muted small">{m.line}</span></span>
            </label>
          ))}
        </fieldset>
        <fieldset className="field wide fresh-grid" aria-label="Freshness">
          <legend className="label">Fresh for (cache first): a stored copy younger than this is served without asking</legend>
          {FRESH_LABELS.map(([kind, label]) => (
            <label key={kind} className="field">
              <span className="small">{label}</span>
              <input
                value={draft.fresh[kind]}
                onChange={(e) => put('fresh', { ...draft.fresh, [kind]: e.target.value })}
                aria-label={`Fresh for: ${label}`}
                aria-invalid={fresh[kind] === null}
                className={fresh[kind] === null ? 'invalid' : undefined}
              />
            </label>
          ))}
          {freshBad ? <span className="hint error-text full-row">Durations such as 15 min, 1 h, 7 d or 1 h 30 min.</span> : null}
        </fieldset>
      </div>
      <div className="form-foot">
        <span className="hint">The API key is given below, apart: it never goes into the data dir.</span>
        <div className="row-actions">
          {state.config ? (
            <button type="button" className="subtle danger" onClick={() => remove.mutate(undefined)} disabled={remove.isPending}>Remove source</button>
          ) : null}
          <button type="submit" disabled={bad || save.isPending}>{state.config ? 'Save source' : 'Add source'}</button>
        </div>
      </div>
      {save.error ? <ErrorState error={save.error} /> : null}
      {remove.error ? <ErrorState error={remove.error} /> : null}
    </form>
  );
}
