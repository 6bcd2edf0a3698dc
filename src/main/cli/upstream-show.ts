import type { Engine } from '../engine/engine';
import { listKeys } from '../engine/keys';
import {
  cleanKey, FRESH_KINDS, getUpstreamConfig, keychainKeySource, maskKey, spendTotals, spentOfBudget, upstreamClient, UPSTREAM_KEY_ACCOUNT, UPSTREAM_KEY_ENV,
  type SpendTotals, type UpstreamBalance, type UpstreamConfig,
} from '../engine/upstream';
import type { Keychain } from '../platform/keychain';
import { dollars, formatDuration, usdOf } from './upstream-format';

// `skein upstream show [--json] [--balance]`: the settings, the key's status, the budget with what
// is spent and left, the running totals (today, this month, all time; UTC like exports) and per
// local user, and with --balance the upstream's own balance beside ours.

export interface ShowFacts {
  config: UpstreamConfig | null;
  nowMs: number;
  totals: SpendTotals;
  /** Items spent since the budget was set (0 without one). */
  spentOfBudgetItems: number;
  /** api user id → name, for the per-user totals. */
  userNames: Map<number, string>;
  /** source: where the key in use comes from (the keychain wins over SKEIN_UPSTREAM_KEY); null without one. */
  key: { present: boolean; masked: string | null; source: 'keychain' | 'environment' | null; keychain: boolean };
  /** Only with --balance: what the upstream said, or why it could not be asked. */
  balance?: { ok: true; value: UpstreamBalance } | { ok: false; reason: string };
}

/** Everything show prints, read from one open engine; with `askBalance`, one balance request first. */
export async function gatherShowFacts(engine: Engine, keychain: Keychain | null, askBalance: boolean): Promise<ShowFacts> {
  const keySource = keychainKeySource(keychain);
  let balance: ShowFacts['balance'];
  if (askBalance) {
    // First, so the key status printed below already holds what this request taught us.
    try {
      balance = { ok: true, value: await upstreamClient(engine, { keySource }).balance() };
    } catch (err) {
      // show stays a read: any failure is one line of why, and exit code 0.
      balance = { ok: false, reason: (err as Error).message.replace(/\s+/g, ' ').trim() };
    }
  }
  const key = await keySource.get();
  const inKeychain = keychain ? cleanKey((await keychain.get(UPSTREAM_KEY_ACCOUNT).catch(() => null)) ?? '') !== null : false;
  const source = key === null ? null : inKeychain ? 'keychain' : 'environment';
  const nowMs = engine.clock.nowMs();
  const config = getUpstreamConfig(engine.db);
  return {
    config,
    nowMs,
    totals: spendTotals(engine.db, nowMs),
    spentOfBudgetItems: config ? spentOfBudget(engine.db, config) : 0,
    userNames: new Map(listKeys(engine.db).map((u) => [u.id, u.name])),
    key: { present: key !== null, masked: key === null ? null : maskKey(key), source, keychain: keychain !== null },
    ...(balance ? { balance } : {}),
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const utcMonth = (ms: number) => new Date(ms).toISOString().slice(0, 7);

function budgetFigures(config: UpstreamConfig, spentItems: number) {
  if (config.budgetItems === null) return null;
  const left = Math.max(0, config.budgetItems - spentItems);
  return { items: config.budgetItems, spent: spentItems, left, sinceMs: config.budgetSetAtMs };
}

function balanceJson(facts: ShowFacts) {
  if (!facts.balance) return {};
  const b = facts.balance;
  return { upstream_balance: b.ok ? { amount: b.value.amount, unit: b.value.unit, error: null } : { amount: null, unit: null, error: b.reason } };
}

/** The --json body: units last in every name; dollars at the configured price, to a millionth. */
export function showJson(facts: ShowFacts): unknown {
  const { config } = facts;
  const key = (c: UpstreamConfig | null) => ({
    present: facts.key.present,
    masked: facts.key.masked,
    source: facts.key.source,
    status: c?.keyStatus ?? 'unknown',
    checked_at: c?.keyCheckedAtMs ? iso(c.keyCheckedAtMs) : null,
    message: c?.keyMessage ?? null,
  });
  if (!config) return { configured: false, key: key(null), ...balanceJson(facts) };
  const price = config.pricePerItemUsd;
  const money = (t: { items: number; requests: number }) => ({ items: t.items, requests: t.requests, usd: usdOf(t.items, price) });
  const budget = budgetFigures(config, facts.spentOfBudgetItems);
  return {
    configured: true,
    url: config.url,
    profile: config.profile,
    mode: config.mode,
    per_minute: config.perMinute,
    fresh_ms: Object.fromEntries(FRESH_KINDS.map((k) => [k, config.freshMs[k]])),
    confirm_over_items: config.confirmOverItems,
    price_per_item_usd: price,
    budget_items: config.budgetItems,
    budget_usd: config.budgetItems === null ? null : usdOf(config.budgetItems, price),
    budget_since: budget ? iso(budget.sinceMs) : null,
    budget_spent_items: budget?.spent ?? null,
    budget_spent_usd: budget ? usdOf(budget.spent, price) : null,
    budget_left_items: budget?.left ?? null,
    budget_left_usd: budget ? usdOf(budget.left, price) : null,
    spend: {
      today: { date_utc: utcDay(facts.nowMs), ...money(facts.totals.today) },
      month: { month_utc: utcMonth(facts.nowMs), ...money(facts.totals.month) },
      all: money(facts.totals.all),
      by_user: facts.totals.byUser.map((u) => ({
        api_user_id: u.apiUserId,
        name: u.apiUserId === null ? null : (facts.userNames.get(u.apiUserId) ?? null),
        via: u.via,
        ...money(u),
      })),
    },
    key: key(config),
    ...balanceJson(facts),
  };
}

/** The text form, one "Label:  value" line each, continuation lines indented under the value. */
export function showText(facts: ShowFacts): string[] {
  const { config } = facts;
  // Without an upstream there is no balance to ask for either: the one line says what to do.
  if (!config) return ["No upstream is set. Run 'skein upstream set --url URL --profile socialdata|spec'."];
  const price = config.pricePerItemUsd;
  const cost = (items: number) => dollars(usdOf(items, price));
  const line = (label: string, value: string) => `${`${label}:`.padEnd(12)}${value}`;
  const more = (value: string) => `${' '.repeat(12)}${value}`;
  const out: string[] = [];
  out.push(line('Upstream', config.url));
  out.push(line('Profile', config.profile));
  out.push(line('Mode', config.mode));
  out.push(line('Limit', `${config.perMinute} requests a minute (all requests share it)`));
  out.push(line('Fresh', `${FRESH_KINDS.map((k) => `${k} ${formatDuration(config.freshMs[k])}`).join(', ')} (cache-first serves a stored copy this long; 0 = always refetch)`));
  out.push(line('Confirm', `a job that may bring back more than ${config.confirmOverItems} upstream items asks first`));
  const budget = budgetFigures(config, facts.spentOfBudgetItems);
  if (!budget) out.push(line('Budget', `none (no cap on upstream spending) at ${dollars(price)} an item`));
  else {
    out.push(line('Budget', `${budget.items} items = ${cost(budget.items)} at ${dollars(price)} an item, counted since ${iso(budget.sinceMs) ?? 'it was set'}`));
    out.push(more(`spent ${budget.spent} items (${cost(budget.spent)}), left ${budget.left} items (${cost(budget.left)})`));
  }
  const t = facts.totals;
  const total = (x: { items: number; requests: number }) => `${x.items} items in ${x.requests} requests (${cost(x.items)})`;
  out.push(line('Spent', `today ${utcDay(facts.nowMs)} (UTC): ${total(t.today)}`));
  out.push(more(`month ${utcMonth(facts.nowMs)} (UTC): ${total(t.month)}`));
  out.push(more(`all time: ${total(t.all)}`));
  t.byUser.forEach((u, i) => {
    const who = u.apiUserId === null ? `(no api user)` : `#${u.apiUserId} ${facts.userNames.get(u.apiUserId) ?? '(deleted user)'}`;
    const text = `${who} via ${u.via}: ${total(u)}`;
    out.push(i === 0 ? line('By user', text) : more(text));
  });
  const k = facts.key;
  const missing = k.keychain ? 'not in the OS keychain' : `no keychain here: set ${UPSTREAM_KEY_ENV}`;
  const checked = config.keyCheckedAtMs ? ` (${iso(config.keyCheckedAtMs)})` : '';
  const from = k.source === 'environment' ? ` from ${UPSTREAM_KEY_ENV}` : k.source === 'keychain' ? ' in the OS keychain' : '';
  out.push(line('Key', `${k.masked === null ? `none (${missing})` : `${k.masked}${from}`}, status ${config.keyStatus}${checked}${config.keyMessage ? `: ${config.keyMessage}` : ''}`));
  if (facts.balance) {
    const ours = budget ? `ours: ${budget.left} items (${cost(budget.left)}) left of the budget` : `ours: no budget, ${t.all.items} items (${cost(t.all.items)}) spent in all`;
    if (facts.balance.ok) {
      const b = facts.balance.value;
      out.push(line('Balance', `${b.unit === 'usd' ? `${dollars(b.amount)} (USD)` : `${b.amount} credits`} at the upstream; ${ours}`));
    } else out.push(line('Balance', `not available: ${facts.balance.reason}`));
  }
  return out;
}
