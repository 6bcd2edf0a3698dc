import { type FormEvent, useState } from 'react';
import type { UpstreamState } from '../../../../shared/contract';
import { useSkeinMutation } from '../../api/hooks';
import { ErrorState } from '../../components/States';

export const KEY_INPUT_ID = 'upstream-key';

/**
 * The upstream API key: typed once, sent to the engine, which keeps it in the OS keychain or, where
 * none answers, in memory for this session. Only its masked form ever comes back.
 */
export function SourceKey({ state, onSaved }: { state: UpstreamState; onSaved: () => void }) {
  const save = useSkeinMutation('upstream.setKey', ['upstream.get']);
  const [key, setKey] = useState('');
  const k = state.key;
  // Where no keychain answers and no key came from the environment, the key is asked once per session.
  const asking = k.store === 'session' && !k.present;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ key }, {
      onSuccess: () => {
        setKey('');
        // The mutation's cache holds the arguments it was given: the key goes with it.
        save.reset();
        if (state.config) onSaved();
      },
    });
  };
  return (
    <div className={asking ? 'key-ask' : undefined} data-testid="key-panel">
      {asking ? <p><strong>Skein needs the upstream API key once per session.</strong></p> : null}
      <p className="hint" data-testid="key-store-message">{k.store_message}</p>
      {k.store === 'none' ? null : (
        <form className="row-form" onSubmit={submit}>
          <label className="grow">
            <span className="label">{k.present ? 'Replace the upstream API key' : 'Upstream API key'}</span>
            <input id={KEY_INPUT_ID} type="password" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" spellCheck={false} aria-label="Upstream API key" placeholder={k.masked ?? 'paste the key'} />
          </label>
          <button type="submit" disabled={key.trim() === '' || save.isPending}>{k.store === 'keychain' ? 'Save to keychain' : 'Use for this session'}</button>
          {k.source === 'session' || k.source === 'keychain' ? (
            <button type="button" className="subtle" onClick={() => save.mutate({ key: null })} disabled={save.isPending}>Forget key</button>
          ) : null}
        </form>
      )}
      {save.error ? <ErrorState error={save.error} /> : null}
    </div>
  );
}
