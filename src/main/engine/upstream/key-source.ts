// Where the upstream API key comes from. The engine never imports the OS keychain (src/main/platform):
// the CLI, `skein serve` and the desktop shell pass a KeySource in. The key is never stored in the
// database, never logged and never put in an error message: only maskKey() of it is ever shown.

export const UPSTREAM_KEY_ACCOUNT = 'upstream-api-key';
export const UPSTREAM_KEY_ENV = 'SKEIN_UPSTREAM_KEY';
/** A key is a short token; anything longer is a pasted file, not a key. */
export const MAX_KEY_LENGTH = 4_096;

export interface KeySource {
  /** The key, or null when none is set. */
  get(): Promise<string | null>;
  /** Where the key comes from, in words ("the OS keychain", "SKEIN_UPSTREAM_KEY"). */
  readonly describe: string;
}

/** The subset of the keychain adapter a key source needs (platform/keychain.ts's Keychain). */
export interface SecretStore {
  get(account: string): Promise<string | null>;
}

/** The key from the environment variable, for where no keychain answers. */
export function envKeySource(env: NodeJS.ProcessEnv = process.env): KeySource {
  return { get: () => Promise.resolve(cleanKey(env[UPSTREAM_KEY_ENV] ?? '')), describe: UPSTREAM_KEY_ENV };
}

/** The key from the keychain, else from the environment variable (set for this one run). */
export function keychainKeySource(store: SecretStore | null, env: NodeJS.ProcessEnv = process.env): KeySource {
  const fromEnv = envKeySource(env);
  if (!store) return fromEnv;
  return {
    describe: `the OS keychain (or ${UPSTREAM_KEY_ENV})`,
    async get() {
      return cleanKey((await store.get(UPSTREAM_KEY_ACCOUNT)) ?? '') ?? (await fromEnv.get());
    },
  };
}

/** A key as given (stdin ends with a newline): trimmed; empty is no key. */
export function cleanKey(raw: string): string | null {
  const key = raw.trim();
  return key === '' ? null : key;
}

/** Whether a key is usable in an Authorization header: printable ASCII, no spaces, bounded. */
export function isWellFormedKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && /^[\x21-\x7e]+$/.test(key);
}

/** The key as shown anywhere: its first 3 and last 4 characters at most ("sk_…abcd"). */
export function maskKey(key: string): string {
  if (key.length <= 8) return '…';
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}

/** Text from outside (an upstream's message) with the key cut out, should it echo it back. */
export function redactKey(text: string, key: string | null): string {
  return key ? text.split(key).join(maskKey(key)) : text;
}

/** A key source the app can give a key to for this session only (where no keychain answers). */
export interface SessionKeySource extends KeySource {
  /** Keeps `key` in memory until the process ends (null forgets it); never written anywhere. */
  setSessionKey(key: string | null): void;
  /** Whether a key was given this session (the app's Settings says so). */
  hasSessionKey(): boolean;
}

/** `base` first (keychain, environment), else the key the app's user gave this session. */
export function sessionKeySource(base: KeySource): SessionKeySource {
  let sessionKey: string | null = null;
  return {
    describe: `${base.describe}, or the key given in Settings > Sources for this session`,
    async get() {
      return (await base.get()) ?? sessionKey;
    },
    setSessionKey(key) {
      sessionKey = key === null ? null : cleanKey(key);
    },
    hasSessionKey: () => sessionKey !== null,
  };
}
