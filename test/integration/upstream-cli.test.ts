import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKey, revokeKey } from '../../src/main/engine/keys';
import { bookSpend, getUpstreamConfig, setUpstreamConfig, UPSTREAM_KEY_ACCOUNT, UPSTREAM_KEY_ENV } from '../../src/main/engine/upstream';
import { gatherShowFacts, showText } from '../../src/main/cli/upstream-show';
import type { Keychain } from '../../src/main/platform/keychain';
import { runCli as run } from '../helpers/cli';
import { testEngine } from '../helpers/engine';
import { tempDir } from '../helpers/temp';
import { upstreamSkein } from '../helpers/upstream-skein';

// `skein upstream set|show|test|remove`, the real CLI in-process against a real data dir, with a
// second real Skein on loopback as the upstream. No OS keychain answers in the test environment,
// so the key comes in SKEIN_UPSTREAM_KEY, as it must wherever no keychain exists.

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

const HOUR_MS = 3_600_000;

describe('skein upstream', () => {
  it('sets, shows, tests and removes the upstream; the key is only ever shown masked', async () => {
    const a = await upstreamSkein();
    const b = testEngine();
    const dir = b.dataDir;
    vi.stubEnv('SKEIN_UPSTREAM_KEY', a.key);
    const outputs: string[] = [];
    const cli = async (...args: string[]) => {
      const r = await run('upstream', ...args, '--data-dir', dir);
      outputs.push(r.out, r.err);
      return r;
    };

    const set = await cli('set', '--url', `${a.server.url}/`, '--profile', 'spec', '--mode', 'refresh', '--per-minute', '30', '--budget', '5000');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('No OS keychain');
    expect(set.out).toContain('SKEIN_UPSTREAM_KEY');
    expect(set.out).toContain('$1.00'); // 5,000 items at $0.0002
    expect(getUpstreamConfig(b.db)).toMatchObject({ url: a.server.url, profile: 'spec', mode: 'refresh', perMinute: 30, budgetItems: 5000, keyStatus: 'unknown' });

    const masked = `${a.key.slice(0, 3)}…${a.key.slice(-4)}`;
    const shown = await cli('show', '--json');
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      configured: true, url: a.server.url, profile: 'spec', mode: 'refresh', per_minute: 30, budget_items: 5000, budget_usd: 1, price_per_item_usd: 0.0002,
      key: { present: true, masked, source: 'environment', status: 'unknown' },
    });

    const tested = await cli('test');
    expect(tested.code, tested.err).toBe(0);
    expect(tested.out).toMatch(/^ok: .* balance 10\d{6} credits\.$/);
    expect(JSON.parse((await cli('show', '--json')).out).key.status).toBe('valid');

    revokeKey(a.engine, a.key);
    const refused = await cli('test');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('refused the API key (HTTP 401)');
    const afterRevoke = await cli('show');
    expect(afterRevoke.out).toContain('status invalid');
    expect(afterRevoke.out).toContain(masked);

    const removed = await cli('remove');
    expect(removed.code, removed.err).toBe(0);
    expect(getUpstreamConfig(b.db)).toBeNull();
    expect(JSON.parse((await cli('show', '--json')).out).configured).toBe(false);

    for (const text of outputs) expect(text).not.toContain(a.key);
    // nor anywhere in the data dir's database files (the config row was written with the key at hand)
    for (const file of [b.dbFile, `${b.dbFile}-wal`]) if (existsSync(file)) expect(readFileSync(file).includes(a.key)).toBe(false);
  });

  it('tests a socialdata-profile upstream through the /user/balance path, in dollars', async () => {
    const a = await upstreamSkein();
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', a.key);
    expect((await run('upstream', 'set', '--url', a.server.url, '--profile', 'socialdata', '--data-dir', b.dataDir)).code).toBe(0);
    const tested = await run('upstream', 'test', '--data-dir', b.dataDir);
    expect(tested.code, tested.err).toBe(0);
    expect(tested.out).toMatch(/balance \$20\d\d(\.\d+)?\.$/); // 10,000,000+ credits at 5,000 a dollar
    expect(getUpstreamConfig(b.db)).toMatchObject({ profile: 'socialdata', mode: 'cache-first', perMinute: 120, budgetItems: null, keyStatus: 'valid' });
  });

  it('test says clearly when there is no upstream or no key, with a non-zero exit code', async () => {
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', '');
    const none = await run('upstream', 'test', '--data-dir', b.dataDir);
    expect(none.code).toBe(1);
    expect(none.err).toContain('No upstream is set');
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    expect((await run('upstream', 'set', '--url', 'http://127.0.0.1:9', '--profile', 'spec', '--data-dir', b.dataDir)).code).toBe(0);
    vi.stubEnv('SKEIN_UPSTREAM_KEY', '');
    const noKey = await run('upstream', 'test', '--data-dir', b.dataDir);
    expect(noKey.code).toBe(1);
    expect(noKey.err).toContain('No upstream API key');
  });

  it('refuses bad input with a clear message and exit code 2, storing nothing', async () => {
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    for (const [args, words] of [
      [['--profile', 'spec'], '--url URL is required'],
      [['--url', 'http://127.0.0.1:1'], '--profile'],
      [['--url', 'not a url', '--profile', 'spec'], 'absolute URL'],
      [['--url', 'ftp://example.org', '--profile', 'spec'], 'http'],
      [['--url', 'https://me:secret@example.org', '--profile', 'spec'], 'password'],
      [['--url', 'https://example.org/?key=x', '--profile', 'spec'], 'query'],
      [['--url', 'https://example.org', '--profile', 'twitter'], "unknown --profile 'twitter'"],
      [['--url', 'https://example.org', '--profile', 'spec', '--mode', 'fast'], "unknown --mode 'fast'"],
      [['--url', 'https://example.org', '--profile', 'spec', '--per-minute', '0'], '--per-minute must be between 1'],
      [['--url', 'https://example.org', '--profile', 'spec', '--per-minute=-5'], '--per-minute takes a whole number'],
      [['--url', 'https://example.org', '--profile', 'spec', '--budget=-1'], '--budget takes a whole number'],
      [['--url', 'https://example.org', '--profile', 'spec', '--budget', '1.5'], '--budget takes a whole number'],
      [['--url', 'https://example.org', '--profile', 'spec', '--colour', 'red'], 'colour'],
    ] as const) {
      const r = await run('upstream', 'set', ...args, '--data-dir', b.dataDir);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toContain(words);
      expect(getUpstreamConfig(b.db)).toBeNull();
    }
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'has a space');
    const badKey = await run('upstream', 'set', '--url', 'https://example.org', '--profile', 'spec', '--data-dir', b.dataDir);
    expect(badKey.code).toBe(2);
    expect(badKey.err).not.toContain('has a space');
    expect(getUpstreamConfig(b.db)).toBeNull();
    expect((await run('upstream', 'frobnicate', '--data-dir', b.dataDir)).code).toBe(2);
    // A first set without --url, into a data dir that does not exist yet, does not make one.
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    const missing = join(tempDir(), 'never-made');
    const partial = await run('upstream', 'set', '--mode', 'refresh', '--data-dir', missing);
    expect(partial.code).toBe(2);
    expect(partial.err).toContain('--url URL is required on the first set');
    expect(existsSync(missing)).toBe(false);
  });

  it('sets the upstream before the app ever ran, making the data dir as keys create does', async () => {
    const dir = join(tempDir(), 'not-yet');
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    const set = await run('upstream', 'set', '--url', 'https://example.org', '--profile', 'socialdata', '--data-dir', dir);
    expect(set.code, set.err).toBe(0);
    const shown = await run('upstream', 'show', '--json', '--data-dir', dir);
    expect(JSON.parse(shown.out)).toMatchObject({ configured: true, url: 'https://example.org', profile: 'socialdata' });
  });

  it('set changes only what it is given: a partial set keeps the budget, limit, freshness and threshold; --budget none removes the budget', async () => {
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    const set = (...args: string[]) => run('upstream', 'set', ...args, '--data-dir', b.dataDir);
    const first = await set('--url', 'https://example.org', '--profile', 'spec', '--per-minute', '30', '--budget', '5000', '--fresh', 'post=1h', '--confirm-over', '50');
    expect(first.code, first.err).toBe(0);
    const stored = getUpstreamConfig(b.db)!;
    expect(stored).toMatchObject({ mode: 'cache-first', perMinute: 30, budgetItems: 5000, confirmOverItems: 50, freshMs: { post: HOUR_MS } });
    expect(stored.budgetSetAtMs).not.toBeNull();

    // The command from the bug: the budget and the limit used to be erased by it.
    const modeOnly = await set('--url', 'https://example.org', '--profile', 'spec', '--mode', 'refresh');
    expect(modeOnly.code, modeOnly.err).toBe(0);
    expect(modeOnly.out).toContain('Changed: mode cache-first → refresh.');
    // budgetSetAtMs unchanged: the budget keeps counting what was spent since it was set.
    expect(getUpstreamConfig(b.db)).toEqual({ ...stored, mode: 'refresh', updatedAtMs: expect.any(Number) });

    // With an upstream stored, --url and --profile may be left out.
    const limitOnly = await set('--per-minute', '12');
    expect(limitOnly.code, limitOnly.err).toBe(0);
    expect(getUpstreamConfig(b.db)).toEqual({ ...stored, mode: 'refresh', perMinute: 12, updatedAtMs: expect.any(Number) });
    expect((await set()).out).toContain('Nothing changed.');

    const noBudget = await set('--budget', 'none');
    expect(noBudget.code, noBudget.err).toBe(0);
    expect(noBudget.out).toContain('no budget');
    expect(noBudget.out).toContain('budget 5000 → none');
    expect(getUpstreamConfig(b.db)).toEqual({ ...stored, mode: 'refresh', perMinute: 12, budgetItems: null, budgetSetAtMs: null, updatedAtMs: expect.any(Number) });
    expect(JSON.parse((await run('upstream', 'show', '--json', '--data-dir', b.dataDir)).out)).toMatchObject({ budget_items: null, budget_usd: null, budget_left_items: null, per_minute: 12 });

    const budgetErr = await set('--budget', 'lots');
    expect(budgetErr.code).toBe(2);
    expect(budgetErr.err).toContain('or none to remove the budget');
  });

  it('--fresh sets the kinds named and keeps the others; bad durations are refused with exit 2, storing nothing', async () => {
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    const set = (...args: string[]) => run('upstream', 'set', ...args, '--data-dir', b.dataDir);
    // Bad input on a first set stores no upstream at all.
    const refusedFirst = await set('--url', 'https://example.org', '--profile', 'spec', '--fresh', 'post=15');
    expect(refusedFirst.code).toBe(2);
    expect(getUpstreamConfig(b.db)).toBeNull();

    const good = await set('--url', 'https://example.org', '--profile', 'spec', '--fresh', 'post=90s,page=0', '--fresh', 'article=7d', '--confirm-over', '0');
    expect(good.code, good.err).toBe(0);
    const stored = getUpstreamConfig(b.db)!;
    // user and space keep the defaults (1d and 1h, migration 054).
    expect(stored.freshMs).toEqual({ post: 90_000, page: 0, user: 24 * HOUR_MS, article: 7 * 24 * HOUR_MS, space: HOUR_MS });
    expect(stored.confirmOverItems).toBe(0);
    const json = JSON.parse((await run('upstream', 'show', '--json', '--data-dir', b.dataDir)).out);
    expect(json).toMatchObject({ fresh_ms: { post: 90_000, page: 0, user: 86_400_000, article: 604_800_000, space: 3_600_000 }, confirm_over_items: 0 });
    const text = await run('upstream', 'show', '--data-dir', b.dataDir);
    expect(text.out).toContain('post 90s, page 0, user 1d, article 7d, space 1h');
    expect((await set('--fresh', 'space=36h')).out).toContain('fresh space 1h → 36h');
    const after = getUpstreamConfig(b.db)!;
    expect(after.freshMs.space).toBe(36 * HOUR_MS);

    for (const [value, words] of [
      ['post', 'KIND=DURATION'],
      ['=1h', 'KIND=DURATION'],
      ['tweet=1h', "unknown kind 'tweet'"],
      ['post=15', 'needs a unit'],
      ['post=', 'is not a duration'],
      ['post=1.5h', 'is not a duration'],
      ['post=-1m', 'is not a duration'],
      ['post=2w', 'is not a duration'],
      ['post=366d', 'longer than 365d'],
      ['post=1h,post=2h', 'post is given twice'],
      ['post=1h,user=soon', "--fresh user: 'soon'"],
    ] as const) {
      const r = await set('--fresh', value, '--mode', 'offline');
      expect(r.code, `--fresh ${value}: ${r.err}`).toBe(2);
      expect(r.err).toContain(words);
      expect(getUpstreamConfig(b.db)).toEqual(after); // not even the valid --mode or kinds beside it
    }
    const badConfirm = await set('--confirm-over', '-3');
    expect(badConfirm.code).toBe(2);
    expect(badConfirm.err).toContain('--confirm-over');
    expect(getUpstreamConfig(b.db)).toEqual(after);
  });

  it('show gives the budget spent and left and the running totals today, this month, all time and per user (UTC days)', async () => {
    // The CLI's engine runs on the system clock: only Date is faked, so 'today' is a known day.
    const t0 = Date.UTC(2026, 10, 23, 12);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(t0);
    const b = testEngine();
    const analyst = createKey(b, 'analyst').user;
    vi.stubEnv('SKEIN_UPSTREAM_KEY', 'sk_some_key_1234');
    const set = await run('upstream', 'set', '--url', 'https://example.org', '--profile', 'spec', '--budget', '1000', '--data-dir', b.dataDir);
    expect(set.code, set.err).toBe(0);
    const line = (id: string, atMs: number, items: number, who: Parameters<typeof bookSpend>[1]['who']) => expect(bookSpend(b.db, { id, atMs, items, request: '/social/tweets/1', who })).toBe(true);
    line('last-month', Date.UTC(2026, 9, 31, 23, 59), 50, { via: 'api', apiUserId: analyst.id });
    line('this-month', Date.UTC(2026, 10, 2), 30, { via: 'app' });
    line('today-1', t0 + HOUR_MS, 20, { via: 'api', apiUserId: analyst.id });
    line('today-2', t0 + 2 * HOUR_MS, 1, { via: 'api', apiUserId: analyst.id });
    vi.setSystemTime(t0 + 3 * HOUR_MS);

    const shown = await run('upstream', 'show', '--json', '--data-dir', b.dataDir);
    expect(shown.code, shown.err).toBe(0);
    const json = JSON.parse(shown.out);
    expect(json).toMatchObject({
      budget_items: 1000, budget_usd: 0.2, budget_since: '2026-11-23T12:00:00.000Z',
      // only what was spent since the budget was set counts against it
      budget_spent_items: 21, budget_spent_usd: 0.0042, budget_left_items: 979, budget_left_usd: 0.1958,
      spend: {
        today: { date_utc: '2026-11-23', items: 21, requests: 2, usd: 0.0042 },
        month: { month_utc: '2026-11', items: 51, requests: 3, usd: 0.0102 },
        all: { items: 101, requests: 4, usd: 0.0202 },
      },
    });
    expect(json.spend.by_user).toEqual([
      { api_user_id: analyst.id, name: 'analyst', via: 'api', items: 71, requests: 3, usd: 0.0142 },
      { api_user_id: null, name: null, via: 'app', items: 30, requests: 1, usd: 0.006 },
    ]);

    const text = await run('upstream', 'show', '--data-dir', b.dataDir);
    expect(text.out).toContain('1000 items = $0.20 at $0.0002 an item, counted since 2026-11-23T12:00:00.000Z');
    expect(text.out).toContain('spent 21 items ($0.0042), left 979 items ($0.1958)');
    expect(text.out).toContain('today 2026-11-23 (UTC): 21 items in 2 requests ($0.0042)');
    expect(text.out).toContain('month 2026-11 (UTC): 51 items in 3 requests ($0.0102)');
    expect(text.out).toContain('all time: 101 items in 4 requests ($0.0202)');
    expect(text.out).toContain(`#${analyst.id} analyst via api: 71 items in 3 requests ($0.0142)`);

    // the same spend in the ledger's upstream account: the analyst's ledger lists its three lines,
    // none of which moves the analyst's credits
    const ledger = await run('credits', 'ledger', '--user', 'analyst', '--json', '--data-dir', b.dataDir);
    expect(ledger.code, ledger.err).toBe(0);
    const book = JSON.parse(ledger.out) as { available: number; upstream_items: number; transfers: { id: string; kind: string; upstream_items: number; available_change: number }[] };
    expect(book.upstream_items).toBe(71);
    expect(book.transfers.filter((t) => t.kind === 'upstream').map((t) => [t.id, t.upstream_items, t.available_change])).toEqual([
      ['upstream:last-month', 50, 0],
      ['upstream:today-1', 20, 0],
      ['upstream:today-2', 1, 0],
    ]);
    expect(book.available).toBe(100_000);
    const ledgerText = await run('credits', 'ledger', '--user', 'analyst', '--data-dir', b.dataDir);
    expect(ledgerText.out).toContain("The upstream billed 71 items for this user's requests");
    expect(ledgerText.out).toContain('the upstream billed 20 items (api: /social/tweets/1)');
  });

  it('show --balance prints the upstream\'s own balance beside ours, and one line of why when it cannot', async () => {
    const a = await upstreamSkein();
    const b = testEngine();
    vi.stubEnv('SKEIN_UPSTREAM_KEY', a.key);
    const cli = (...args: string[]) => run('upstream', ...args, '--data-dir', b.dataDir);
    expect((await cli('set', '--url', a.server.url, '--profile', 'spec', '--budget', '5000')).code).toBe(0);

    const text = await cli('show', '--balance');
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/^Balance: +10\d{6} credits at the upstream; ours: 5000 items \(\$1\.00\) left of the budget$/m);
    expect(text.out).toContain('status valid'); // the balance request checked the key, and show says so
    const json = JSON.parse((await cli('show', '--json', '--balance')).out);
    expect(json.upstream_balance).toEqual({ amount: expect.any(Number), unit: 'credits', error: null });
    expect(json.upstream_balance.amount).toBeGreaterThanOrEqual(10_000_000);
    expect(JSON.parse((await cli('show', '--json')).out)).not.toHaveProperty('upstream_balance'); // only when asked

    // The real service's profile: its /user/balance is in dollars.
    expect((await cli('set', '--profile', 'socialdata')).code).toBe(0);
    const usd = await cli('show', '--balance');
    expect(usd.out).toMatch(/^Balance: +\$20\d\d(\.\d+)? \(USD\) at the upstream; ours: 5000 items \(\$1\.00\) left/m);

    vi.stubEnv('SKEIN_UPSTREAM_KEY', '');
    const noKey = await cli('show', '--balance');
    expect(noKey.code, noKey.err).toBe(0);
    expect(noKey.out).toMatch(/^Balance: +not available: No upstream API key/m);
    const noKeyJson = JSON.parse((await cli('show', '--json', '--balance')).out);
    expect(noKeyJson.upstream_balance).toMatchObject({ amount: null, unit: null, error: expect.stringContaining('No upstream API key') });

    vi.stubEnv('SKEIN_UPSTREAM_KEY', a.key);
    revokeKey(a.engine, a.key);
    const refused = await cli('show', '--balance');
    expect(refused.code).toBe(0);
    expect(refused.out).toMatch(/^Balance: +not available: The upstream refused the API key \(HTTP 401\)/m);
    expect(refused.out).not.toContain(a.key);
  });
});

describe('skein upstream show: where the key comes from', () => {
  it('names the keychain when the key is there, SKEIN_UPSTREAM_KEY when only the environment has one, and nothing without a key', async () => {
    const b = testEngine();
    setUpstreamConfig(b.db, { url: 'https://example.org', profile: 'spec' }, b.clock.nowMs());
    const stored = new Map<string, string>();
    const keychain: Keychain = {
      get: async (account) => stored.get(account) ?? null,
      set: async (account, secret) => void stored.set(account, secret),
      delete: async (account) => stored.delete(account),
    };
    const keyOf = async () => {
      const facts = await gatherShowFacts(b, keychain, false);
      return { key: facts.key, text: showText(facts).find((l) => l.startsWith('Key')) };
    };
    vi.stubEnv(UPSTREAM_KEY_ENV, 'sk_from_the_environment_0001');
    expect(await keyOf()).toMatchObject({ key: { present: true, masked: 'sk_…0001', source: 'environment', keychain: true }, text: expect.stringContaining(`sk_…0001 from ${UPSTREAM_KEY_ENV}`) });
    stored.set(UPSTREAM_KEY_ACCOUNT, 'sk_in_the_os_keychain_0002');
    expect(await keyOf()).toMatchObject({ key: { masked: 'sk_…0002', source: 'keychain' }, text: expect.stringContaining('sk_…0002 in the OS keychain') });
    stored.clear();
    vi.stubEnv(UPSTREAM_KEY_ENV, '');
    expect(await keyOf()).toMatchObject({ key: { present: false, masked: null, source: null }, text: expect.stringContaining('none (not in the OS keychain)') });
  });
});
