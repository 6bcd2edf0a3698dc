import { existsSync } from 'node:fs';
import { createEngine, dbFileOf } from '../engine/engine';
import { SkeinError } from '../engine/errors';
import {
  cleanKey, getUpstreamConfig, isWellFormedKey, keychainKeySource, maskKey, MAX_KEY_LENGTH, removeUpstreamConfig,
  setUpstreamConfig, UPSTREAM_KEY_ACCOUNT, UPSTREAM_KEY_ENV, upstreamClient, UpstreamError, type UpstreamConfig,
} from '../engine/upstream';
import { openKeychain, type Keychain } from '../platform/keychain';
import { type Command, parseCommandArgs, printUsage, runSubcommand, UsageError } from './command';
import { withExistingDataDir, withExistingDataDirAsync } from './open-data-dir';
import { dollars, formatDuration, usdOf } from './upstream-format';
import { changes, givenSettings, mergedSettings, SET_OPTIONS } from './upstream-settings';
import { gatherShowFacts, showJson, showText } from './upstream-show';

// `skein upstream set|show|test|remove`: the upstream source (issue 14). The key goes to the OS
// keychain when one answers, else it must come in SKEIN_UPSTREAM_KEY on every run; it is never
// stored in the data dir and never printed (only its masked form).

export const upstreamCommand: Command = {
  name: 'upstream',
  summary: 'Set, show, test or remove the upstream source (SocialData or another Skein): upstream set | show | test | remove.',
  usage:
    'skein upstream set [--url URL] [--profile socialdata|spec] [--mode offline|cache-first|refresh] [--per-minute N]\n' +
    '                   [--budget ITEMS|none] [--fresh KIND=DURATION[,KIND=DURATION...]] [--confirm-over ITEMS] [--data-dir DIR]\n' +
    '         --url and --profile are required the first time; after that every option not given keeps its stored value.\n' +
    '         --fresh kinds: post, page, user, article, space; durations 90s, 15m, 24h, 7d, or 0 (always refetch).\n' +
    '         --budget none removes the budget; --confirm-over ITEMS: a job that may bring back more asks first.\n' +
    `         The API key comes from standard input, e.g. 'printf %s KEY | skein upstream set ...', or from ${UPSTREAM_KEY_ENV}.\n` +
    '       skein upstream show [--json] [--balance] [--data-dir DIR]\n' +
    '         --balance also asks the upstream for its own balance (USD on socialdata, credits on spec).\n' +
    '       skein upstream test [--data-dir DIR]\n' +
    '       skein upstream remove [--data-dir DIR]',
  run(argv) {
    return Promise.resolve(runSubcommand(this, argv, { set: setCmd, show: showCmd, test: testCmd, remove: removeCmd }));
  },
};

async function keychainOrNull(): Promise<Keychain | null> {
  const status = await openKeychain();
  return status.available ? status.keychain : null;
}

/** The key given to this run: SKEIN_UPSTREAM_KEY, else standard input when it is piped. */
async function givenKey(): Promise<string | null> {
  const fromEnv = cleanKey(process.env[UPSTREAM_KEY_ENV] ?? '');
  if (fromEnv !== null || process.stdin.isTTY) return fromEnv;
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.length > MAX_KEY_LENGTH + 2) throw new UsageError(`the key on standard input is longer than ${MAX_KEY_LENGTH} characters.`);
  }
  return cleanKey(text);
}

async function setCmd(argv: string[]): Promise<number> {
  const { values, dataDir, help } = parseCommandArgs(argv, SET_OPTIONS);
  if (help) return printUsage(upstreamCommand);
  // Every mistake is found before anything is written: options, the key, then (with the stored
  // row at hand) what a first set must have.
  const given = givenSettings(values);
  const key = await givenKey();
  if (key !== null && !isWellFormedKey(key)) throw new UsageError(`the API key must be printable characters without spaces, at most ${MAX_KEY_LENGTH}.`);
  // Without a data dir nothing is stored yet: refuse a first set lacking --url or --profile before making one.
  if (!existsSync(dbFileOf(dataDir))) mergedSettings(given, null);
  // Like 'keys create', this may come before the app ever ran: the data dir is made here then.
  const engine = createEngine({ dataDir });
  try {
    const before = getUpstreamConfig(engine.db);
    const settings = mergedSettings(given, before);
    const keyLine = await keepKey(key);
    let config: UpstreamConfig;
    try {
      config = setUpstreamConfig(engine.db, settings, engine.clock.nowMs());
    } catch (err) {
      if (err instanceof SkeinError && err.code !== 'internal') throw new UsageError(err.message);
      throw err;
    }
    console.log(`Upstream: ${config.url} (profile ${config.profile}, mode ${config.mode}, ${config.perMinute} requests a minute${budgetText(config.budgetItems, config.pricePerItemUsd)}).`);
    console.log(`Fresh: ${Object.entries(config.freshMs).map(([k, ms]) => `${k} ${formatDuration(ms)}`).join(', ')}; a job over ${config.confirmOverItems} items asks first.`);
    if (before) {
      const changed = changes(before, config, { duration: formatDuration, budget: (items) => (items === null ? 'none' : String(items)) });
      console.log(changed.length ? `Changed: ${changed.join('; ')}.` : 'Nothing changed.');
    }
    console.log(keyLine);
    console.log("'skein upstream test' checks the key; 'skein upstream show' shows the budget and what is spent.");
    return 0;
  } finally {
    engine.close();
  }
}

/** Keeps a given key in the keychain, where one answers; the line says where the key is now. */
async function keepKey(key: string | null): Promise<string> {
  const keychain = await keychainOrNull();
  if (keychain && key !== null) {
    await keychain.set(UPSTREAM_KEY_ACCOUNT, key);
    return `API key ${maskKey(key)} kept in the OS keychain.`;
  }
  if (keychain) {
    const kept = await keychain.get(UPSTREAM_KEY_ACCOUNT);
    return kept ? `API key ${maskKey(kept)} in the OS keychain is kept.` : `No API key given: pipe it to 'skein upstream set' or set ${UPSTREAM_KEY_ENV}.`;
  }
  return (
    `No OS keychain answers here, so the key is not kept anywhere: give it in ${UPSTREAM_KEY_ENV} to 'skein serve' ` +
    `and to every 'skein upstream' command${key !== null ? ` (this run had ${maskKey(key)})` : ''}.`
  );
}

function budgetText(items: number | null, price: number): string {
  return items === null ? ', no budget' : `, budget ${items} items = ${dollars(usdOf(items, price))}`;
}

async function showCmd(argv: string[]): Promise<number> {
  const { values, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' }, balance: { type: 'boolean' } });
  if (help) return printUsage(upstreamCommand);
  const keychain = await keychainOrNull();
  const facts = await withExistingDataDirAsync(dataDir, (engine) => gatherShowFacts(engine, keychain, values.balance === true));
  if (values.json) console.log(JSON.stringify(showJson(facts), null, 2));
  else for (const line of showText(facts)) console.log(line);
  return 0;
}

async function testCmd(argv: string[]): Promise<number> {
  const { dataDir, help } = parseCommandArgs(argv, {});
  if (help) return printUsage(upstreamCommand);
  const keySource = keychainKeySource(await keychainOrNull());
  return withExistingDataDirAsync(dataDir, async (engine) => {
    try {
      const client = upstreamClient(engine, { keySource });
      const b = await client.balance();
      const shown = b.unit === 'usd' ? dollars(b.amount) : `${b.amount} credits`;
      console.log(`ok: ${client.config.url} (profile ${client.config.profile}) accepts the key ${maskKey((await keySource.get()) ?? '')}; balance ${shown}.`);
      return 0;
    } catch (err) {
      if (err instanceof UpstreamError) {
        console.error(`skein upstream test: ${err.message}`);
        return 1;
      }
      throw err;
    }
  });
}

async function removeCmd(argv: string[]): Promise<number> {
  const { dataDir, help } = parseCommandArgs(argv, {});
  if (help) return printUsage(upstreamCommand);
  const removed = withExistingDataDir(dataDir, (engine) => removeUpstreamConfig(engine.db));
  const keychain = await keychainOrNull();
  const keyRemoved = keychain ? await keychain.delete(UPSTREAM_KEY_ACCOUNT) : false;
  console.log(removed ? 'Upstream removed.' : 'No upstream was set.');
  if (keyRemoved) console.log('Its API key was deleted from the OS keychain.');
  else if (!keychain) console.log(`No OS keychain here; unset ${UPSTREAM_KEY_ENV} if you exported it.`);
  return 0;
}
