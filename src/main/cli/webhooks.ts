import { SkeinError } from '../engine/errors';
import { listDeliveries, setWebhook, webhookSettings } from '../engine/webhooks';
import { type Command, intOption, parseCommandArgs, UsageError, printUsage, runSubcommand } from './command';
import { withExistingDataDir, userByName } from './open-data-dir';

// `skein webhooks set|clear|show`: a user's webhook URL (spec 5: "entered on the Settings page"),
// its optional signing secret, and the log of deliveries. Works beside a running app.

export const webhooksCommand: Command = {
  name: 'webhooks',
  summary: "Set or clear an api user's webhook URL, or show it with its deliveries: webhooks set | clear | show.",
  usage:
    'skein webhooks set --user NAME --url URL [--secret TEXT | --no-secret] [--data-dir DIR]\n' +
    '       skein webhooks clear --user NAME [--data-dir DIR]\n' +
    '       skein webhooks show --user NAME [--limit N] [--json] [--data-dir DIR]',
  run(argv) {
    return Promise.resolve(runSubcommand(this, argv, { set: setCmd, clear: clearCmd, show: showCmd }));
  },
};

/** Engine refusals (a bad URL, a short secret) are usage mistakes here: message, exit code 2. */
function asUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SkeinError && err.code === 'invalid') throw new UsageError(err.message);
    throw err;
  }
}

function setCmd(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' }, url: { type: 'string' }, secret: { type: 'string' }, 'no-secret': { type: 'boolean' } });
  if (help) return printUsage(webhooksCommand);
  if (typeof values.url !== 'string') throw new UsageError('--url URL is required.');
  if (values.secret !== undefined && values['no-secret']) throw new UsageError('--secret and --no-secret exclude each other.');
  return withExistingDataDir(dataDir, (engine) => {
    const user = userByName(engine, values.user);
    const secret = values['no-secret'] ? null : (values.secret as string | undefined);
    const s = asUsage(() => setWebhook(engine.db, user.id, values.url as string, secret));
    console.log(`Webhook of ${user.name}: ${s.url}${s.hasSecret ? ' (signed: X-Skein-Signature)' : ''}. Every finished job is announced there.`);
    return 0;
  });
}

function clearCmd(argv: string[]): number {
  const { values, dataDir, help } = parseCommandArgs(argv, { user: { type: 'string' } });
  if (help) return printUsage(webhooksCommand);
  return withExistingDataDir(dataDir, (engine) => {
    const user = userByName(engine, values.user);
    setWebhook(engine.db, user.id, null, null);
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
    console.log(`Webhook of ${user.name}: ${settings.url ?? '(none)'}${settings.hasSecret ? ' (signed)' : ''}`);
    if (!deliveries.length) console.log('No deliveries yet.');
    for (const d of deliveries) {
      const when = new Date(d.created_at_ms).toISOString();
      const outcome = d.state === 'delivered' ? 'delivered (200)' : d.state === 'failed' ? `failed: ${d.error ?? `HTTP ${d.http_status}`}` : d.state;
      console.log(`${when}  job ${d.job_id}  ${outcome}${d.duration_ms === null ? '' : `  ${d.duration_ms} ms`}  ${d.url}`);
    }
    return 0;
  });
}

