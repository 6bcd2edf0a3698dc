import { SkeinError } from '../engine/errors';
import { checkWebhookSecret, checkWebhookUrl, listDeliveries, setWebhook, webhookSettings, type WebhookSettings } from '../engine/webhooks';
import { openKeychain, type Keychain } from '../platform/keychain';
import { type Command, intOption, parseCommandArgs, UsageError, printUsage, runSubcommand } from './command';
import { withExistingDataDir, withExistingDataDirAsync, userByName } from './open-data-dir';

// `skein webhooks set|clear|show`: a user's webhook URL (spec 5: "entered on the Settings page"),
// its optional signing secret (in the OS keychain where one answers, else in the database), and the
// log of deliveries. Works beside a running app.

export const webhooksCommand: Command = {
  name: 'webhooks',
  summary: "Set or clear an api user's webhook URL, or show it with its deliveries: webhooks set | clear | show.",
  usage:
    'skein webhooks set --user NAME --url URL [--secret - | --secret TEXT | --no-secret] [--data-dir DIR]\n' +
    '  --secret - reads the secret from standard input, kept out of the process list (ps) and the shell history\n' +
    '       skein webhooks clear --user NAME [--data-dir DIR]\n' +
    '       skein webhooks show --user NAME [--limit N] [--json] [--data-dir DIR]',
  run(argv) {
    return Promise.resolve(runSubcommand(this, argv, { set: setCmd, clear: clearCmd, show: showCmd }));
  },
};

/** Engine refusals (a bad URL, a short secret) are usage mistakes here: message, exit code 2. */
function usageOf(err: unknown): unknown {
  return err instanceof SkeinError && err.code === 'invalid' ? new UsageError(err.message) : err;
}

async function asUsage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw usageOf(err);
  }
}

/** The OS keychain where one answers (opening it writes and deletes a probe entry: platform/keychain.ts). */
async function keychainOrNull(): Promise<Keychain | null> {
  const status = await openKeychain();
  return status.available ? status.keychain : null;
}

/** Where the secret is, in words, and why: every command that sets one says it (issue 13). */
function secretLine(settings: WebhookSettings, keychainAnswers: boolean): string {
  if (settings.secretKeptIn === 'keychain') return 'Deliveries are signed (X-Skein-Signature); the secret is kept in the OS keychain.';
  if (settings.secretKeptIn === 'database' && keychainAnswers) {
    // Kept from a set where none answered: moved by the next start (secret-store.ts moveSecretsToKeychain).
    return "Deliveries are signed (X-Skein-Signature); the secret is still in the database, set where no OS keychain answered. 'skein serve' or the app moves it to the keychain at their next start.";
  }
  if (settings.secretKeptIn === 'database') {
    return (
      'Deliveries are signed (X-Skein-Signature). No OS keychain answers here, so the secret is kept in the database ' +
      "in the data dir, which only your account can read; 'skein serve' or the app moves it to the keychain when they start where one answers."
    );
  }
  return 'Deliveries are not signed (no secret).';
}

async function setCmd(argv: string[]): Promise<number> {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' }, url: { type: 'string' }, secret: { type: 'string' }, 'no-secret': { type: 'boolean' } });
  if (help) return printUsage(webhooksCommand);
  if (typeof values.url !== 'string') throw new UsageError('--url URL is required.');
  if (values.secret !== undefined && values['no-secret']) throw new UsageError('--secret and --no-secret exclude each other.');
  const secret = values['no-secret'] ? null : values.secret === '-' ? await secretFromStdin() : (values.secret as string | undefined);
  try {
    // Checked before the keychain is opened (its probe writes) or the data dir touched.
    checkWebhookUrl(values.url);
    if (typeof secret === 'string') checkWebhookSecret(secret);
  } catch (err) {
    throw usageOf(err);
  }
  return withExistingDataDirAsync(dataDir, async (engine) => {
    const user = userByName(engine, values.user);
    const keychain = await keychainOrNull();
    const s = await asUsage(() => setWebhook({ db: engine.db, ids: engine.ids, keychain }, user.id, values.url as string, secret));
    console.log(`Webhook of ${user.name}: ${s.url}. Every finished job is announced there.`);
    console.log(secretLine(s, keychain !== null));
    return 0;
  });
}

function clearCmd(argv: string[]): Promise<number> {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' } });
  if (help) return Promise.resolve(printUsage(webhooksCommand));
  return withExistingDataDirAsync(dataDir, async (engine) => {
    const user = userByName(engine, values.user);
    // The secret goes too; its keychain entry is deleted where a keychain answers.
    await setWebhook({ db: engine.db, ids: engine.ids, keychain: await keychainOrNull() }, user.id, null, null);
    console.log(`Webhook of ${user.name} cleared; finished jobs are no longer announced.`);
    return 0;
  });
}

function showCmd(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } });
  if (help) return printUsage(webhooksCommand);
  const limit = intOption(values.limit, 'limit', { min: 1, max: 1000 }) ?? 20;
  return withExistingDataDir(dataDir, (engine) => {
    const user = userByName(engine, values.user);
    const settings = webhookSettings(engine.db, user.id);
    const deliveries = listDeliveries(engine.db, user.id, limit);
    if (values.json) {
      console.log(JSON.stringify({ user: user.name, ...settings, deliveries }, null, 2));
      return 0;
    }
    const kept = settings.secretKeptIn === 'keychain' ? ' (signed; secret in the OS keychain)' : settings.secretKeptIn === 'database' ? ' (signed; secret in the database: no OS keychain answered)' : '';
    console.log(`Webhook of ${user.name}: ${settings.url ?? '(none)'}${kept}`);
    if (!deliveries.length) console.log('No deliveries yet.');
    for (const d of deliveries) {
      const when = new Date(d.created_at_ms).toISOString();
      const outcome =
        d.state === 'delivered' ? 'delivered (200)' : d.state === 'failed' ? `failed: ${d.error ?? `HTTP ${d.http_status}`}` : d.error ? `${d.state}: ${d.error}` : d.state;
      console.log(`${when}  job ${d.job_id}  ${outcome}${d.duration_ms === null ? '' : `  ${d.duration_ms} ms`}  ${d.url}`);
    }
    return 0;
  });
}

/**
 * `--secret -`: the secret from standard input (`printf %s "$SECRET" | skein webhooks set ...`), so it
 * never shows in `ps` or the shell history, as `skein upstream set` takes its key. One trailing
 * newline is dropped (what `echo` adds); at most 4 KiB is read, far above the 256 a secret may have.
 */
async function secretFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("--secret - reads the secret from standard input: pipe it in (printf %s \"$SECRET\" | skein webhooks set ... --secret -).");
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.length > 4096) throw new UsageError('the secret on standard input is longer than 4096 characters.');
  }
  return text.replace(/\r?\n$/, '');
}
