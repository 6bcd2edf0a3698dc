import type { Engine } from '../engine/engine';
import { authenticate, createKey } from '../engine/keys';
import type { KeychainStatus } from '../platform/keychain';

const ACCOUNT = 'desktop-api-key';

/**
 * The desktop app's own API key for the local listener (user 'app'), for scripts the analyst runs
 * beside the app. It is a secret, so it lives in the OS keychain, never in the data dir (the
 * database keeps only its hash). Without a keychain it is not kept: a new one is made at the next
 * start, and the old ones stay listed in Settings, where they can be revoked.
 */
export async function desktopApiKey(engine: Engine, keychain: KeychainStatus): Promise<string> {
  if (keychain.available) {
    const kept = await keychain.keychain.get(ACCOUNT);
    if (kept && isValid(engine, kept)) return kept;
  }
  const created = createKey(engine, 'app');
  if (keychain.available) await keychain.keychain.set(ACCOUNT, created.key);
  return created.key;
}

function isValid(engine: Engine, key: string): boolean {
  try {
    authenticate(engine, key);
    return true;
  } catch {
    return false;
  }
}
