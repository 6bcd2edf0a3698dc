import type {
  KeychainInfo, UpstreamKeyInfo, UpstreamSettingsArgs, UpstreamSpendFigure, UpstreamState, UpstreamTestResult,
} from '../../../shared/contract';
import { whenWriteFree } from '../store/when-write-free';
import type { Engine } from '../engine';
import { fail } from '../errors';
import {
  cleanKey, DEFAULT_PRICE_PER_ITEM_USD, FRESH_KINDS, getUpstreamConfig, isWellFormedKey, maskKey, MAX_FRESH_MS, MAX_KEY_LENGTH,
  MAX_PER_MINUTE, MODES, PROFILES, recordKeyStatus, removeUpstreamConfig, setUpstreamConfig, spendTotals, spentOfBudget,
  UPSTREAM_KEY_ACCOUNT, UPSTREAM_KEY_ENV, UpstreamError, type FreshKind, type KeySource, type SessionKeySource, type UpstreamConfig,
} from '../upstream';
import { clientOf } from '../upstream/gateway';
import { intArg, oneOf, optionalIntArg, record, textArg } from './validate';

// Settings > Sources (issue 14): the upstream's settings, its key's state and the spend there.
// The key itself never leaves this file except masked (maskKey): not in a result, an error, a log.

/** Where a key typed in Settings is kept when an OS keychain answers (the shell builds it: upstreamKeyStoreOf). */
export interface UpstreamKeyStore {
  get(): Promise<string | null>;
  set(key: string): Promise<void>;
  delete(): Promise<boolean>;
}

/** The keychain adapter (platform/keychain.ts's Keychain) narrowed to the upstream key's one account. */
export function upstreamKeyStoreOf(secrets: {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}): UpstreamKeyStore {
  return {
    get: () => secrets.get(UPSTREAM_KEY_ACCOUNT),
    set: (key) => secrets.set(UPSTREAM_KEY_ACCOUNT, key),
    delete: () => secrets.delete(UPSTREAM_KEY_ACCOUNT),
  };
}

export interface UpstreamDeps {
  upstreamKeyStore?: UpstreamKeyStore | null;
  keychain?: () => KeychainInfo;
}

const SETTINGS = ['url', 'profile', 'mode', 'per_minute', 'budget_items', 'fresh_ms', 'confirm_over_items'];

function sessionOf(keys: KeySource): SessionKeySource | null {
  return typeof (keys as Partial<SessionKeySource>).setSessionKey === 'function' ? (keys as SessionKeySource) : null;
}

/** A keychain that fails a read (locked since the start) answers "no key" here, not an error page. */
async function quietly<T>(read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch {
    return fallback;
  }
}

async function keyInfo(engine: Engine, deps: UpstreamDeps, config: UpstreamConfig | null): Promise<UpstreamKeyInfo> {
  const store = deps.upstreamKeyStore ?? null;
  const session = sessionOf(engine.upstreamKeys);
  const key = await quietly(() => engine.upstreamKeys.get(), null);
  let source: UpstreamKeyInfo['source'] = 'none';
  if (key !== null) {
    // The key source tries the keychain, then the environment, then this session's key
    // (key-source.ts); which one answered is found by asking each in the same order.
    if (store && cleanKey((await quietly(() => store.get(), null)) ?? '') === key) source = 'keychain';
    else if (cleanKey(process.env[UPSTREAM_KEY_ENV] ?? '') === key) source = 'environment';
    else if (session?.hasSessionKey()) source = 'session';
    else source = 'keychain';
  }
  const keychainAnswers = deps.keychain?.().available === true;
  const storeIn: UpstreamKeyInfo['store'] = store ? 'keychain' : session ? 'session' : 'none';
  const storeMessage =
    storeIn === 'keychain'
      ? 'A key saved here goes to the OS keychain (service "Skein"); it is never written to the data dir.'
      : storeIn === 'session'
        ? keychainAnswers
          ? `This Skein was started without the keychain for the upstream key, so the key is kept in memory until Skein stops; set ${UPSTREAM_KEY_ENV} to avoid typing it.`
          : `No OS keychain answers here, so the key is kept in memory until Skein stops; set ${UPSTREAM_KEY_ENV} to avoid typing it.`
        : `This Skein takes the key from the OS keychain ('skein upstream set') or ${UPSTREAM_KEY_ENV} only.`;
  return {
    present: key !== null,
    masked: key === null ? null : maskKey(key),
    source,
    status: config?.keyStatus ?? 'unknown',
    message: config?.keyMessage ?? null,
    checked_ms: config?.keyCheckedAtMs ?? null,
    store: storeIn,
    store_message: storeMessage,
    env_var: UPSTREAM_KEY_ENV,
  };
}

export async function upstreamState(engine: Engine, deps: UpstreamDeps): Promise<UpstreamState> {
  const config = getUpstreamConfig(engine.db);
  const price = config?.pricePerItemUsd ?? DEFAULT_PRICE_PER_ITEM_USD;
  const usd = (items: number) => items * price;
  const figure = (f: { items: number; requests: number }): UpstreamSpendFigure => ({ items: f.items, requests: f.requests, usd: usd(f.items) });
  const totals = spendTotals(engine.db, engine.clock.nowMs());
  const names = new Map(
    (engine.db.prepare('SELECT id, name FROM api_users').all() as { id: number; name: string }[]).map((u) => [u.id, u.name]),
  );
  let budget: UpstreamState['budget'] = null;
  if (config && config.budgetItems !== null) {
    const spent = spentOfBudget(engine.db, config);
    const left = Math.max(0, config.budgetItems - spent);
    budget = { items: config.budgetItems, usd: usd(config.budgetItems), spent_items: spent, spent_usd: usd(spent), left_items: left, left_usd: usd(left), set_ms: config.budgetSetAtMs };
  }
  return {
    config: config && {
      url: config.url,
      profile: config.profile,
      mode: config.mode,
      per_minute: config.perMinute,
      budget_items: config.budgetItems,
      budget_set_ms: config.budgetSetAtMs,
      price_per_item_usd: config.pricePerItemUsd,
      fresh_ms: { ...config.freshMs },
      confirm_over_items: config.confirmOverItems,
      updated_ms: config.updatedAtMs,
    },
    key: await keyInfo(engine, deps, config),
    spend: {
      today: figure(totals.today),
      month: figure(totals.month),
      all: figure(totals.all),
      by_user: totals.byUser.map((r) => ({
        ...figure(r),
        api_user_id: r.apiUserId,
        user_name: r.apiUserId === null ? null : (names.get(r.apiUserId) ?? null),
        via: r.via,
      })),
    },
    budget,
    price_per_item_usd: price,
  };
}

/** The settings as given by the form: each field checked and named in the error, nothing stored on a mistake. */
function settingsArgs(raw: unknown): UpstreamSettingsArgs & { budget_items: number | null } {
  const args = record(raw);
  for (const name of Object.keys(args)) {
    if (name === 'key') throw fail.invalid('key', 'the API key is not a setting: give it with upstream.setKey, so it goes to the keychain and never to the data dir.');
    if (!SETTINGS.includes(name)) throw fail.invalid(name, `not a setting of the upstream; the settings are ${SETTINGS.join(', ')}.`);
  }
  const url = textArg(args, 'url', 2_048).trim();
  const profile = oneOf(args, 'profile', PROFILES);
  const mode = oneOf(args, 'mode', MODES, 'cache-first');
  const perMinute = optionalIntArg(args, 'per_minute', 1, MAX_PER_MINUTE);
  const budget = args.budget_items === undefined || args.budget_items === null || args.budget_items === '' ? null : intArg(args, 'budget_items', 0, Number.MAX_SAFE_INTEGER);
  const confirm = optionalIntArg(args, 'confirm_over_items', 0, Number.MAX_SAFE_INTEGER);
  let fresh: Partial<Record<FreshKind, number>> | undefined;
  if (args.fresh_ms !== undefined && args.fresh_ms !== null) {
    if (typeof args.fresh_ms !== 'object' || Array.isArray(args.fresh_ms)) throw fail.invalid('fresh_ms', `expected {${FRESH_KINDS.join(', ')}} in milliseconds.`);
    const given = args.fresh_ms as Record<string, unknown>;
    fresh = {};
    for (const kind of Object.keys(given)) {
      if (!(FRESH_KINDS as readonly string[]).includes(kind)) throw fail.invalid(`fresh_ms.${kind}`, `not a kind; use ${FRESH_KINDS.join(', ')}.`);
      // 0 means "always refetch"; a year is the most (config.ts MAX_FRESH_MS).
      fresh[kind as FreshKind] = intArg({ [`fresh_ms.${kind}`]: given[kind] }, `fresh_ms.${kind}`, 0, MAX_FRESH_MS);
    }
  }
  return {
    url,
    profile,
    mode,
    budget_items: budget,
    ...(perMinute !== undefined ? { per_minute: perMinute } : {}),
    ...(fresh ? { fresh_ms: fresh } : {}),
    ...(confirm !== undefined ? { confirm_over_items: confirm } : {}),
  };
}

export async function setUpstream(engine: Engine, deps: UpstreamDeps, raw: unknown): Promise<UpstreamState> {
  const s = settingsArgs(raw);
  const settings = {
    url: s.url,
    profile: s.profile,
    mode: s.mode,
    budgetItems: s.budget_items,
    ...(s.per_minute !== undefined ? { perMinute: s.per_minute } : {}),
    ...(s.fresh_ms ? { freshMs: s.fresh_ms } : {}),
    ...(s.confirm_over_items !== undefined ? { confirmOverItems: s.confirm_over_items } : {}),
  };
  // The app's writes here wait for another process's write lock off the event loop (store/when-write-free.ts).
  await whenWriteFree(engine.db, () => setUpstreamConfig(engine.db, settings, engine.clock.nowMs()));
  return upstreamState(engine, deps);
}

export async function removeUpstream(engine: Engine, deps: UpstreamDeps): Promise<UpstreamState & { removed: boolean }> {
  const removed = await whenWriteFree(engine.db, () => removeUpstreamConfig(engine.db));
  await forgetKey(engine, deps);
  return { ...(await upstreamState(engine, deps)), removed };
}

async function forgetKey(engine: Engine, deps: UpstreamDeps): Promise<void> {
  const store = deps.upstreamKeyStore ?? null;
  if (store) await quietly(() => store.delete(), false);
  sessionOf(engine.upstreamKeys)?.setSessionKey(null);
}

/** One balance request with the key in use. The upstream's failures are a result the form shows, never a crash. */
export async function testUpstream(engine: Engine, deps: UpstreamDeps): Promise<UpstreamTestResult> {
  try {
    const balance = await clientOf(engine).balance();
    const state = await upstreamState(engine, deps);
    const price = state.price_per_item_usd;
    // 'usd' (the real service) is dollars; 'credits' (another Skein) are items, one credit an item.
    const items = balance.unit === 'usd' ? Math.floor(balance.amount / price) : balance.amount;
    const usd = balance.unit === 'usd' ? balance.amount : balance.amount * price;
    return { ok: true, balance, balance_items: items, balance_usd: usd, state };
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    return { ok: false, kind: err.kind, message: err.message, state: await upstreamState(engine, deps) };
  }
}

/**
 * The key typed in Settings: into the OS keychain when the shell gave one, else kept in memory for
 * this session (sessionKeySource). `key: null` forgets it. A new key's status starts over at 'unknown'.
 */
export async function setUpstreamKey(engine: Engine, deps: UpstreamDeps, raw: unknown): Promise<UpstreamState> {
  const args = record(raw);
  const config = getUpstreamConfig(engine.db);
  if (args.key === null) {
    await forgetKey(engine, deps);
    if (config) await whenWriteFree(engine.db, () => recordKeyStatus(engine.db, 'unknown', null, engine.clock.nowMs()));
    return upstreamState(engine, deps);
  }
  const key = cleanKey(textArg(args, 'key', MAX_KEY_LENGTH + 2));
  if (key === null) throw fail.missing('key');
  if (!isWellFormedKey(key)) throw fail.invalid('key', `printable characters without spaces, at most ${MAX_KEY_LENGTH}.`);
  const store = deps.upstreamKeyStore ?? null;
  const session = sessionOf(engine.upstreamKeys);
  let kept = false;
  if (store) {
    try {
      await store.set(key);
      kept = true;
      session?.setSessionKey(null);
    } catch {
      // A keychain that answered at start and refuses now (locked since): this session only, which
      // the key's source then says.
    }
  }
  if (!kept) {
    if (!session) throw fail.invalid('key', `this Skein takes the key from the OS keychain ('skein upstream set') or ${UPSTREAM_KEY_ENV} only.`);
    session.setSessionKey(key);
  }
  if ((await quietly(() => engine.upstreamKeys.get(), null)) !== key) {
    // The environment's key comes before a typed one (key-source.ts): saying "saved" would be a lie.
    session?.setSessionKey(null);
    throw fail.invalid('key', `${UPSTREAM_KEY_ENV} is set for this Skein and is used before a key typed here; unset it and restart Skein to use another key.`);
  }
  if (config) await whenWriteFree(engine.db, () => recordKeyStatus(engine.db, 'unknown', null, engine.clock.nowMs()));
  return upstreamState(engine, deps);
}
