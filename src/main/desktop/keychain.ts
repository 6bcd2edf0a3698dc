// The OS keychain behind one small adapter (keytar today; archived upstream, so it must stay
// swappable). Plain Node: no electron import, so it is tested under Node with a real Secret
// Service (gnome-keyring in a D-Bus session) and without one.

/** The subset of keytar we use. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

export type KeychainStatus = { available: true; keychain: Keychain } | { available: false; reason: string };

export const SERVICE = 'Skein';
// Accounts are short fixed names; a secret is a key or a token (well under 1 KiB).
const MAX_ACCOUNT = 64;
const MAX_SECRET = 4_096;

export const NO_KEYRING_MESSAGE =
  'No OS keychain is available, so Skein cannot keep secrets outside its data dir. On Linux a Secret Service ' +
  '(GNOME Keyring or KWallet) must be running and unlocked in your session; on macOS and Windows the system keychain is used. ' +
  'Skein still works: the desktop API key is then kept only for this session.';

function check(account: string, secret?: string): void {
  if (!/^[\w.-]+$/.test(account) || account.length > MAX_ACCOUNT) throw new Error(`keychain: bad account name '${account.slice(0, 80)}'`);
  if (secret !== undefined && (secret.length === 0 || secret.length > MAX_SECRET)) throw new Error('keychain: a secret is 1 to 4096 characters');
}

/**
 * Opens the keychain: loads keytar and makes one read to find out whether a keyring answers (on
 * Linux without a Secret Service, keytar rejects every call). Never throws: a missing keyring is
 * a status with a clear reason, which the app shows in words.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a native module, loaded lazily so a missing build is a status, not a crash
const loadKeytar = (): KeytarLike => require('keytar') as KeytarLike;

export async function openKeychain(load: () => KeytarLike = loadKeytar, service = SERVICE): Promise<KeychainStatus> {
  let keytar: KeytarLike;
  try {
    keytar = load();
  } catch (err) {
    return { available: false, reason: `${NO_KEYRING_MESSAGE} (keytar could not be loaded: ${firstLine(err)})` };
  }
  try {
    await keytar.getPassword(service, 'probe');
  } catch (err) {
    return { available: false, reason: `${NO_KEYRING_MESSAGE} (${firstLine(err)})` };
  }
  return {
    available: true,
    keychain: {
      get: (account) => (check(account), keytar.getPassword(service, account)),
      set: (account, secret) => (check(account, secret), keytar.setPassword(service, account, secret)),
      delete: (account) => (check(account), keytar.deletePassword(service, account)),
    },
  };
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 300);
}
