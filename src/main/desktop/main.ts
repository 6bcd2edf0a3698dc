import { app, type BrowserWindow, dialog, Menu } from 'electron';
import { join } from 'node:path';
import { loadDemoOnFirstStart } from '../engine/corpus/seed';
import { createEngine, type Engine } from '../engine/engine';
import { privateUmask } from '../engine/store/private-dir';
import { createHandlers } from '../engine/handlers';
import { upstreamKeyStoreOf } from '../engine/handlers/upstream';
import { moveSecretsToKeychain, movedSecretsLine } from '../engine/webhooks';
import { EventHub } from '../engine/handlers/event-hub';
import { startImport } from '../engine/handlers/imports';
import { exportsDir } from '../engine/jobs/files';
import { setListenerBaseUrl, startJobRunner, type JobRunner } from '../engine/jobs';
import { startWalCheckpointer, walThreadWanted } from '../engine/store/wal-checkpointer';
import { defaultDataDir } from '../engine/paths';
import { buildHttpApp } from '../http/app';
import { listenerUrl } from '../http/app-page';
import { desktopApiKey } from './desktop-key';
import { registerIpc } from './ipc';
import { keychainInfo, openKeychain } from '../platform/keychain';
import { keychainKeySource, sessionKeySource } from '../engine/upstream/key-source';
import { buildMenu } from './menu';
import { betterSqliteBinding } from './native';
import { notifyJobEnds } from './notifications';
import { createMainWindow } from './window';

// The desktop shell: one window over the engine, the contract over IPC, the local API for scripts
// in the same process. Kept small: everything that can live in the engine does.

const API_PORT = 7878;
const dataDir = process.env.SKEIN_DATA_DIR ?? defaultDataDir();

// One instance per data dir: Electron's single-instance lock lives in userData, so pointing
// userData into the data dir makes the lock per data dir (two data dirs, two windows).
app.setPath('userData', join(dataDir, 'electron'));
if (!app.requestSingleInstanceLock({ dataDir })) {
  app.quit();
} else {
  let win: BrowserWindow | null = null;
  const window = () => (win && !win.isDestroyed() ? win : null);
  app.on('second-instance', () => {
    const w = window();
    if (!w) return;
    if (w.isMinimized()) w.restore();
    w.focus();
  });

  privateUmask(); // what the app writes in the data dir is the user's alone (store/private-dir.ts)
  void app.whenReady().then(async () => {
    let engine: Engine;
    const nativeBinding = betterSqliteBinding();
    // Secrets in the OS keychain (docs/decisions.md "Secrets"): the desktop's own API key and the
    // upstream's (else SKEIN_UPSTREAM_KEY, else the key given in Settings > Sources for this session).
    const keychain = await openKeychain();
    if (!keychain.available) console.warn(keychain.reason);
    const keychainState = keychainInfo(keychain);
    const upstreamKeys = sessionKeySource(keychainKeySource(keychain.available ? keychain.keychain : null));
    try {
      engine = createEngine({ dataDir, upstreamKeys, keychain: keychain.available ? keychain.keychain : null, ...(nativeBinding ? { nativeBinding } : {}) });
    } catch (err) {
      dialog.showErrorBox('Skein cannot open its data', `${(err as Error).message}\n\nData dir: ${dataDir}`);
      app.exit(1);
      return;
    }
    // The data dir's first start: the demo corpus, so there is something to browse (Home removes it).
    loadDemoOnFirstStart(engine.db, { wanted: true });
    // Webhook secrets kept in the database (set where no keychain answered) go to the keychain now.
    const moved = movedSecretsLine(await moveSecretsToKeychain(engine).catch((err: unknown) => ({ moved: 0, error: (err as Error).message })));
    if (moved) console.log(`Skein: ${moved}`);

    // The local API for scripts, in process: 7878 when free, otherwise any free port.
    const http = await buildHttpApp(engine, {});
    try {
      await http.listen({ port: API_PORT, host: '127.0.0.1' });
    } catch {
      await http.listen({ port: 0, host: '127.0.0.1' });
    }
    const apiUrl = () => listenerUrl(http);
    setListenerBaseUrl(engine.db, apiUrl()!);
    // WAL checkpoints on a thread of their own, never on a request's commit; before the job
    // runner, whose workers take the same setting (store/wal-checkpointer.ts). Opt-in for now (see
    // src/main/cli/serve.ts).
    const wal = walThreadWanted() ? startWalCheckpointer(engine, nativeBinding ? { nativeBinding } : {}) : undefined;
    const jobs: JobRunner = startJobRunner(engine, nativeBinding ? { nativeBinding } : {});


    const events = new EventHub();
    // A key typed in Settings > Sources goes to the keychain when it answers, else it is kept for this session.
    const upstreamKeyStore = keychain.available ? upstreamKeyStoreOf(keychain.keychain) : null;
    const appHandlers = createHandlers(engine, { events, mode: 'desktop', apiUrl, keychain: () => keychainState, upstreamKeyStore });
    const imports = new Set<Promise<unknown>>();
    const unregister = registerIpc(engine, appHandlers, window, apiUrl);
    const stopNotifications = notifyJobEnds(events, window);
    Menu.setApplicationMenu(
      buildMenu({ window, events, exportsDir: exportsDir(dataDir), importPaths: (paths) => startImport(engine, events, { paths }, imports) }),
    );

    await desktopApiKey(engine, keychain).catch((err: unknown) => console.warn(`Skein: desktop API key: ${(err as Error).message}`));

    win = createMainWindow();
    app.on('activate', () => {
      if (!window()) win = createMainWindow();
    });

    let quitting = false;
    app.on('before-quit', (event) => {
      if (quitting) return;
      quitting = true;
      event.preventDefault();
      stopNotifications();
      unregister();
      appHandlers.close();
      void jobs
        .stop()
        .then(() => http.close())
        .then(() => wal?.stop())
        .finally(() => {
          engine.close();
          app.exit(0);
        });
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
