import { BrowserWindow, shell } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The page's own address: the built index.html, or the dev server electron-vite starts.
export function rendererUrl(): string {
  return process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(join(__dirname, '../renderer/index.html')).href;
}

/**
 * The window's icon (Linux shows it in the task switcher; Windows and macOS take the installer's):
 * the renderer build copies resources/ beside the page; `electron-vite dev` builds no page, so there
 * it is read from resources/ itself.
 */
export function windowIconPath(): string {
  const built = join(__dirname, '../renderer/icons/256x256.png');
  return existsSync(built) ? built : join(__dirname, '../../resources/icons/256x256.png');
}

/** True when `url` is our page (the IPC bridge answers only frames showing it). */
export function isAppUrl(url: string): boolean {
  const base = rendererUrl().split('#')[0]!;
  return url === base || url.startsWith(`${base}#`) || url.startsWith(`${base}?`);
}

/**
 * The one window: isolated, sandboxed, no Node in the page, no navigation away from our page, no
 * new windows; http(s) links open in the OS browser instead.
 */
export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1320,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Skein',
    icon: windowIconPath(),
    backgroundColor: '#f6f7f9',
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // The page needs no camera, microphone, notifications API, geolocation...: refuse them all.
  contents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererUrl());
  return win;
}
