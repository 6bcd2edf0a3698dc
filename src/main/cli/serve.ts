import { resolve } from 'node:path';
import { createEngine, type Engine } from '../engine/engine';
import { makeDataDirPrivate } from '../engine/store/private-dir';
import { isDiskFull } from '../engine/disk/space';
import { diskFullReport } from '../engine/disk/report';
import { loadDemoOnFirstStart } from '../engine/corpus/seed';
import { buildHttpApp } from '../http/app';
import { startJobRunner, type JobRunner } from '../engine/jobs';
import { defaultDataDir } from '../engine/paths';
import { type Command, intOption, parseCommandArgs, printUsage, UsageError } from './command';
import { isLoopbackHost } from '../http/plugins/host-check';
import { keychainInfo, openKeychain } from '../platform/keychain';
import { keychainKeySource, sessionKeySource, UPSTREAM_KEY_ENV } from '../engine/upstream/key-source';
import { upstreamKeyStoreOf } from '../engine/handlers/upstream';
import { moveSecretsToKeychain, movedSecretsLine } from '../engine/webhooks';
import { appLoginToken } from '../engine/store/app-login-token';
import { loginUrl } from '../http/app-session';
import { startWalCheckpointer, walThreadWanted, type WalCheckpointer } from '../engine/store/wal-checkpointer';

export const DEFAULT_PORT = 7878;
export const DEFAULT_HOST = '127.0.0.1';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the engine, the local API and the app page on one port (headless mode).',
  usage: 'skein serve [--port 7878] [--host 127.0.0.1] [--data-dir DIR] [--allow-remote] [--no-demo]',
  async run(argv) {
    const { values, dataDir, help } = parseCommandArgs(argv, {
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'no-demo': { type: 'boolean' },
      'renderer-dir': { type: 'string' },
    });
    if (help) return printUsage(this);
    const port = intOption(values.port, 'port', { max: 65535 }) ?? DEFAULT_PORT;
    const host = (values.host as string | undefined) ?? DEFAULT_HOST;
    const loopback = isLoopbackHost(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host, new Set());
    if (!loopback && values['allow-remote'] !== true) {
      throw new UsageError(`--host ${host} is not a loopback address: Skein serves your data and keys to anyone who can reach it. Add --allow-remote if you mean it.`);
    }
    if (!loopback) console.warn(`Warning: listening on ${host}. Anyone who can reach this address can use your API keys' data.`);

    // The keychain holds secrets such as the upstream's API key; Settings says whether it answers.
    const keychainStatus = await openKeychain();
    const keychain = keychainInfo(keychainStatus);
    if (!keychain.available) {
      console.log(
        `No OS keychain answers here; Skein works without it (Settings > Data says why). An upstream key comes from ${UPSTREAM_KEY_ENV} or, for one session, from Settings > Sources. ` +
          'Webhook signing secrets are kept in the database, which only your account can read.',
      );
    }
    const upstreamKeys = sessionKeySource(keychainKeySource(keychainStatus.available ? keychainStatus.keychain : null));
    // A start writes (migrations, the demo corpus, taking back the jobs of a crashed process): on a
    // full disk, SQLite's "database or disk is full" alone does not say what to delete (issue 13).
    let engine: Engine | undefined;
    let app: Awaited<ReturnType<typeof buildHttpApp>> | undefined;
    let jobs: JobRunner;
    let wal: WalCheckpointer | undefined;
    try {
      // Made private before the engine opens it, saying so when it was not (issue 13).
      const tightened = makeDataDirPrivate(dataDir);
      if (tightened.length) {
        console.log(`Made the data dir private to your account (others could read it): ${tightened.length} ${tightened.length === 1 ? 'path' : 'paths'} now 0700/0600, e.g. ${tightened[0]}.`);
      }
      engine = createEngine({ dataDir, upstreamKeys, keychain: keychainStatus.available ? keychainStatus.keychain : null });
      // Webhook secrets kept in the database (set where no keychain answered) go to the keychain now.
      const moved = movedSecretsLine(await moveSecretsToKeychain(engine));
      if (moved) console.log(moved);
      // The data dir's first start: the demo corpus, so there is something to browse; --no-demo
      // declines it for good (first-start.ts).
      const started = Date.now();
      const demo = loadDemoOnFirstStart(engine.db, { wanted: values['no-demo'] !== true });
      if (demo.seeded) {
        console.log(
          `Loaded the demo corpus (fictional: 200 users, 20,000 posts) into ${dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s. ` +
            "Before you add your own data, remove it with 'skein seed --remove' or Home > Remove the demo data.",
        );
      }
      const rendererDir = (values['renderer-dir'] as string | undefined) ?? resolve(__dirname, '../renderer');
      app = await buildHttpApp(engine, {
        rendererDir,
        keychain: () => keychain,
        // A key typed in Settings > Sources goes to the keychain when one answers, else it is kept for this session.
        upstreamKeyStore: keychainStatus.available ? upstreamKeyStoreOf(keychainStatus.keychain) : null,
        extraHosts: loopback ? new Set() : new Set([host.toLowerCase()]),
      });
      await app.listen({ port, host });
      // WAL checkpoints on a thread of their own, never on a request's commit; before the job
      // runner, whose workers take the same setting (store/wal-checkpointer.ts). Opt-in for now:
      // with it on, the real full-disk test (jobs-disk-full-tmpfs) no longer ends as it must;
      // docs/decisions.md "WAL checkpoints off the request path: built, not yet on".
      if (walThreadWanted()) wal = startWalCheckpointer(engine);
      // Jobs (spec 4.6-4.8) run in worker threads; jobs a crash left behind resume here.
      jobs = startJobRunner(engine);
    } catch (err) {
      await app?.close().catch(() => undefined);
      await wal?.stop();
      engine?.close();
      if (isDiskFull(err)) throw new Error(`cannot start. ${diskFullReport(dataDir, err)}`);
      throw err;
    }
    const running = engine;
    const server = app;
    const checkpointer = wal;
    const address = server.server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    // The address logs a browser in (http/app-session.ts); it is the data dir's, kept across starts.
    console.log(`Skein is running at ${loginUrl(`http://${shownHost}:${actualPort}`, appLoginToken(dataDir, running.ids))}`);
    console.log(`Open that address in a browser to use the app. It logs you in, so keep it to yourself. To print it again: ${appUrlCommand(host, actualPort, dataDir)}`);

    await new Promise<void>((done) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`Skein is stopping (${signal}).`);
        jobs
          .stop()
          .then(() => server.close())
          .then(() => checkpointer?.stop())
          .catch((err: unknown) => console.error('Error while stopping:', err))
          .finally(() => {
            running.close();
            done();
          });
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};

/** The `skein app-url` command that prints this server's login address again. */
function appUrlCommand(host: string, port: number, dataDir: string): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  return [
    'skein app-url',
    host === DEFAULT_HOST ? '' : ` --host ${host}`,
    port === DEFAULT_PORT ? '' : ` --port ${port}`,
    dataDir === defaultDataDir() ? '' : ` --data-dir ${quote(dataDir)}`,
  ].join('');
}
