// The OS keychain behind one small adapter, used by the desktop shell and headless mode alike. It
// sits on @napi-rs/keyring (keytar's maintained successor: prebuilt N-API binaries shipped as npm
// packages, so no compiler, no libsecret headers, and one build for Node and Electron). Plain
// Node: no electron import, so it is tested under Node with a real Secret Service (gnome-keyring
// in a D-Bus session) and without one.

/** keytar's API, the subset we use: the adapter's interface stayed the same across the move. */
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
const PROBE_ACCOUNT = 'probe';

export const NO_KEYRING_MESSAGE =
  'No OS keychain is available, so Skein cannot keep secrets outside its data dir. On Linux a Secret Service ' +
  '(GNOME Keyring or KWallet) must be running and unlocked in your session; on macOS and Windows the system keychain is used. ' +
  'Skein still works: the desktop API key is then kept only for this session.';

function check(account: string, secret?: string): void {
  if (!/^[\w.-]+$/.test(account) || account.length > MAX_ACCOUNT) throw new Error(`keychain: bad account name '${account.slice(0, 80)}'`);
  if (secret !== undefined && (secret.length === 0 || secret.length > MAX_SECRET)) throw new Error('keychain: a secret is 1 to 4096 characters');
}

interface AsyncEntryLike {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  deletePassword(): Promise<boolean>;
}
type AsyncEntryCtor = new (service: string, account: string, options?: { linux?: { store?: 'secret-service' | 'keyutils' } }) => AsyncEntryLike;

/**
 * keytar's three calls over @napi-rs/keyring's entries, pinned to the Secret Service on Linux. Its
 * own keytar shim (`@napi-rs/keyring/keytar`) falls back to the kernel keyring when no Secret
 * Service answers: that keyring is emptied at logout, so a secret "kept" there is lost at the next
 * session without a word, and its reads answer null instead of failing, so a missing keyring
 * would look like an empty one. Pinned, a missing Secret Service is an error we can name.
 * (The option is ignored on macOS and Windows, where the system keychain is the only store.)
 */
function loadKeyring(): KeytarLike {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a native module, loaded lazily so a missing build is a status, not a crash
  const { AsyncEntry } = require('@napi-rs/keyring') as { AsyncEntry: AsyncEntryCtor };
  const entry = (service: string, account: string): AsyncEntryLike => new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  return {
    getPassword: async (service, account) => entry(service, account).getPassword(),
    setPassword: async (service, account, password) => entry(service, account).setPassword(password),
    deletePassword: async (service, account) => entry(service, account).deletePassword(),
  };
}

/**
 * Opens the keychain: loads the binding and writes and deletes one probe entry. A read alone
 * proves nothing, since a locked keyring answers reads with null and refuses only writes. Never
 * throws: a missing or locked keyring is a status with a clear reason, which the app shows in words.
 */
export async function openKeychain(load: () => KeytarLike = loadKeyring, service = SERVICE): Promise<KeychainStatus> {
  let keyring: KeytarLike;
  try {
    keyring = load();
  } catch (err) {
    return { available: false, reason: `${NO_KEYRING_MESSAGE} (the keyring module could not be loaded: ${firstLine(err)})` };
  }
  try {
    await keyring.setPassword(service, PROBE_ACCOUNT, 'probe');
    await keyring.deletePassword(service, PROBE_ACCOUNT);
  } catch (err) {
    return { available: false, reason: `${NO_KEYRING_MESSAGE} (${firstLine(err)})` };
  }
  return {
    available: true,
    keychain: {
      get: (account) => (check(account), keyring.getPassword(service, account)),
      set: (account, secret) => (check(account, secret), keyring.setPassword(service, account, secret)),
      delete: (account) => (check(account), keyring.deletePassword(service, account)),
    },
  };
}

/** The status in words for the app's Settings (the contract's KeychainInfo). */
export function keychainInfo(status: KeychainStatus): { available: boolean; message: string } {
  return status.available
    ? { available: true, message: `Secrets are kept in the OS keychain, under the service name "${SERVICE}".` }
    : { available: false, message: status.reason };
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 300);
}
