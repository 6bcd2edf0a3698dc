import { type FormEvent, useState } from 'react';
import type { ApiUserRow } from '../../../../shared/contract';
import { useSkein, useSkeinMutation } from '../../api/hooks';
import { ErrorState } from '../../components/States';

export const SECRET_INPUT_ID = 'webhook-secret';

/** Where the secret is kept and why, in words (the CLI says the same: cli/webhooks.ts). */
function secretMessage(keptIn: ApiUserRow['webhook_secret_kept_in'], keychainAnswers: boolean | undefined): string {
  if (keptIn === 'keychain') return 'Deliveries are signed (X-Skein-Signature). The secret is kept in the OS keychain.';
  // Where a secret is (or would be) kept depends on whether a keychain answers: said once that is known,
  // not guessed while the app's info loads (it said "kept in the OS keychain" meanwhile, also where none answers).
  if (keychainAnswers === undefined) return keptIn === 'database' ? 'Deliveries are signed (X-Skein-Signature).' : 'Not signed.';
  if (keptIn === 'database') {
    return keychainAnswers
      ? 'Deliveries are signed (X-Skein-Signature). The secret is still in the database: it was set where no OS keychain answered. Skein moves it to the keychain at its next start.'
      : 'Deliveries are signed (X-Skein-Signature). No OS keychain answers here, so the secret is kept in the database in the data dir, which only your account can read.';
  }
  if (keychainAnswers === false) return 'Not signed. No OS keychain answers here, so a secret you set is kept in the database in the data dir, which only your account can read.';
  return 'Not signed. A secret you set is kept in the OS keychain; each delivery then carries X-Skein-Signature.';
}

/**
 * The webhook's signing secret: typed, sent to the engine, which keeps it in the OS keychain where
 * one answers (else in the database, and this says so). It never comes back, only where it is.
 */
export function WebhookSecret({ user }: { user: ApiUserRow }) {
  const info = useSkein('app.info', undefined, { staleTime: 0 });
  const save = useSkeinMutation('webhooks.set', ['users.list']);
  const [secret, setSecret] = useState('');
  const keptIn = user.webhook_secret_kept_in;
  const send = (value: string | null) =>
    // The URL stays as stored; the mutation's cache holds its arguments, so the secret is dropped from it.
    save.mutate({ user_id: user.id, url: user.webhook_url, secret: value }, { onSuccess: () => (setSecret(''), save.reset()) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(secret);
  };
  return (
    <div data-testid="webhook-secret-panel">
      <p className="hint" data-testid="webhook-secret-message">{secretMessage(keptIn, info.data?.keychain.available)}</p>
      <form className="row-form" onSubmit={submit}>
        <label className="grow">
          <span className="label">{keptIn ? 'Replace the signing secret' : 'Signing secret (optional)'}</span>
          <input id={SECRET_INPUT_ID} type="password" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="off" spellCheck={false} aria-label="Webhook signing secret" placeholder="16 to 256 characters" />
        </label>
        <button type="submit" disabled={secret === '' || save.isPending}>Save secret</button>
        {keptIn ? <button type="button" className="subtle" onClick={() => send(null)} disabled={save.isPending}>Remove secret</button> : null}
      </form>
      {save.error ? <ErrorState error={save.error} /> : null}
    </div>
  );
}
