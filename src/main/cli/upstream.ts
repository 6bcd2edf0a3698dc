import { createEngine } from '../engine/engine';
import { SkeinError } from '../engine/errors';
import {
  cleanKey, getUpstreamConfig, isWellFormedKey, keychainKeySource, maskKey, MAX_KEY_LENGTH, normalizeUpstreamUrl, removeUpstreamConfig,
  setUpstreamConfig, UPSTREAM_KEY_ACCOUNT, UPSTREAM_KEY_ENV, upstreamClient, UpstreamError, MAX_PER_MINUTE, type UpstreamSettings,
} from '../engine/upstream';
import { openKeychain, type Keychain } from '../platform/keychain';
import { type Command, intOption, parseCommandArgs, printUsage, runSubcommand, UsageError } from './command';
import { withExistingDataDir, withExistingDataDirAsync } from './open-data-dir';

// `skein upstream set|show|test|remove`: the upstream source (issue 14). The key goes to the OS
// keychain when one answers, else it must come in SKEIN_UPSTREAM_KEY on every run; it is never
// stored in the data dir and never printed (only its masked form).

export const upstreamCommand: Command = {
  name: 'upstream',
  summary: 'Set, show, test or remove the upstream source (SocialData or another Skein): upstream set | show | test | remove.',
  usage:
    'skein upstream set --url URL --profile socialdata|spec [--mode offline|cache-first|refresh] [--per-minute N] [--budget ITEMS] [--data-dir DIR]\n' +
    `         (the API key from standard input, e.g. 'printf %s KEY | skein upstream set ...', or from ${UPSTREAM_KEY_ENV})\n` +
    '       skein upstream show [--json] [--data-dir DIR]\n' +
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

/** The engine's refusals of a setting are usage mistakes here: message, exit code 2, nothing stored. */
function settingsFrom(values: Record<string, unknown>): UpstreamSettings {
  if (typeof values.url !== 'string') throw new UsageError('--url URL is required.');
  if (typeof values.profile !== 'string') throw new UsageError('--profile socialdata|spec is required.');
  const settings: UpstreamSettings = {
    url: values.url,
    profile: values.profile,
    mode: values.mode as string | undefined,
    perMinute: intOption(values['per-minute'], 'per-minute', { min: 1, max: MAX_PER_MINUTE }),
    budgetItems: intOption(values.budget, 'budget'),
  };
  try {
    normalizeUpstreamUrl(settings.url);
  } catch (err) {
    if (err instanceof SkeinError) throw new UsageError(err.message);
    throw err;
  }
  if (settings.profile !== 'socialdata' && settings.profile !== 'spec') throw new UsageError(`unknown --profile '${settings.profile}' (use socialdata or spec).`);
  if (settings.mode !== undefined && !['offline', 'cache-first', 'refresh'].includes(settings.mode)) throw new UsageError(`unknown --mode '${settings.mode}' (use offline, cache-first or refresh).`);
  return settings;
}

async function setCmd(argv: string[]): Promise<number> {
  const { values, dataDir, help } = parseCommandArgs(argv, {
    url: { type: 'string' }, profile: { type: 'string' }, mode: { type: 'string' }, 'per-minute': { type: 'string' }, budget: { type: 'string' },
  });
  if (help) return printUsage(upstreamCommand);
  const settings = settingsFrom(values);
  const key = await givenKey();
  if (key !== null && !isWellFormedKey(key)) throw new UsageError(`the API key must be printable characters without spaces, at most ${MAX_KEY_LENGTH}.`);
  const keychain = await keychainOrNull();
  let keyLine: string;
  if (keychain && key !== null) {
    await keychain.set(UPSTREAM_KEY_ACCOUNT, key);
    keyLine = `API key ${maskKey(key)} kept in the OS keychain.`;
  } else if (keychain) {
    const kept = await keychain.get(UPSTREAM_KEY_ACCOUNT);
    keyLine = kept ? `API key ${maskKey(kept)} in the OS keychain is kept.` : `No API key given: pipe it to 'skein upstream set' or set ${UPSTREAM_KEY_ENV}.`;
  } else {
    keyLine =
      `No OS keychain answers here, so the key is not kept anywhere: give it in ${UPSTREAM_KEY_ENV} to 'skein serve' ` +
      `and to every 'skein upstream' command${key !== null ? ` (this run had ${maskKey(key)})` : ''}.`;
  }
  // Like 'keys create', this may come before the app ever ran: the data dir is made here then.
  const engine = createEngine({ dataDir });
  try {
    const config = setUpstreamConfig(engine.db, settings, engine.clock.nowMs());
    console.log(`Upstream: ${config.url} (profile ${config.profile}, mode ${config.mode}, ${config.perMinute} requests a minute${budgetText(config.budgetItems, config.pricePerItemUsd)}).`);
    console.log(keyLine);
    console.log("Note: reads and jobs do not use the upstream yet; 'skein upstream test' checks the key.");
    return 0;
  } finally {
    engine.close();
  }
}

function budgetText(items: number | null, price: number): string {
  return items === null ? ', no budget' : `, budget ${items} items = $${(items * price).toFixed(2)}`;
}

async function showCmd(argv: string[]): Promise<number> {
  const { values, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' } });
  if (help) return printUsage(upstreamCommand);
  const config = withExistingDataDir(dataDir, (engine) => getUpstreamConfig(engine.db));
  const keychain = await keychainOrNull();
  const key = await keychainKeySource(keychain).get();
  const keyInfo = {
    present: key !== null,
    masked: key === null ? null : maskKey(key),
    source: keychain ? 'keychain' : 'environment',
    status: config?.keyStatus ?? 'unknown',
    checked_at: config?.keyCheckedAtMs ? new Date(config.keyCheckedAtMs).toISOString() : null,
    message: config?.keyMessage ?? null,
  };
  if (values.json) {
    const body = config
      ? {
          configured: true, url: config.url, profile: config.profile, mode: config.mode, per_minute: config.perMinute,
          budget_items: config.budgetItems, budget_usd: config.budgetItems === null ? null : config.budgetItems * config.pricePerItemUsd,
          price_per_item_usd: config.pricePerItemUsd, key: keyInfo,
        }
      : { configured: false, key: keyInfo };
    console.log(JSON.stringify(body, null, 2));
    return 0;
  }
  if (!config) {
    console.log("No upstream is set. Run 'skein upstream set --url URL --profile socialdata|spec'.");
    return 0;
  }
  console.log(`Upstream:   ${config.url}`);
  console.log(`Profile:    ${config.profile}`);
  console.log(`Mode:       ${config.mode}`);
  console.log(`Limit:      ${config.perMinute} requests a minute (all requests share it)`);
  console.log(`Budget:     ${config.budgetItems === null ? 'none' : `${config.budgetItems} items = $${(config.budgetItems * config.pricePerItemUsd).toFixed(2)}`} at $${config.pricePerItemUsd} an item`);
  console.log(`Key:        ${keyInfo.masked ?? `none (${keychain ? 'not in the OS keychain' : `no keychain here: set ${UPSTREAM_KEY_ENV}`})`}, status ${keyInfo.status}${keyInfo.checked_at ? ` (${keyInfo.checked_at})` : ''}${keyInfo.message ? `: ${keyInfo.message}` : ''}`);
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
      const shown = b.unit === 'usd' ? `$${b.amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false })}` : `${b.amount} credits`;
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
