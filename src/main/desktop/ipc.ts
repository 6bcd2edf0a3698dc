import { type BrowserWindow, ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, nativeImage, shell } from 'electron';
import { handlerNames, ipcChannels } from '../../shared/contract';
import type { Engine } from '../engine/engine';
import type { AppHandlers } from '../engine/handlers';
import { dispatch } from '../engine/handlers/dispatch';
import { exportFileOf } from '../engine/handlers/exports';
import { isAppUrl } from './window';

// A 16x16 transparent PNG: startDrag needs an icon; the OS draws the file's own.
const DRAG_ICON = nativeImage.createFromDataURL(
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAEklEQVR42mNgGAWjYBSMAggAAAQQAAGvRYgsAAAAAElFTkSuQmCC',
);

/** Only our own page, in our own window, may call the engine: every sender's frame is checked. */
function fromApp(event: IpcMainInvokeEvent | IpcMainEvent, win: () => BrowserWindow | null): boolean {
  const frame = event.senderFrame;
  return Boolean(frame && win()?.webContents.id === event.sender.id && isAppUrl(frame.url));
}

/** The contract over IPC: one ipcMain.handle per handler name, events forwarded to the window. */
export function registerIpc(engine: Engine, app: AppHandlers, win: () => BrowserWindow | null, apiUrl: () => string | null): () => void {
  for (const name of handlerNames) {
    ipcMain.handle(ipcChannels.rpcPrefix + name, async (event, args: unknown) => {
      if (!fromApp(event, win)) return { ok: false, error: { code: 'forbidden', message: 'Refused: not the Skein window.' } };
      return dispatch(app.handlers, name, args);
    });
  }
  ipcMain.on(ipcChannels.startDrag, (event, jobId: unknown) => {
    if (!fromApp(event, win)) return;
    try {
      const file = exportFileOf(engine, { job_id: jobId }, apiUrl());
      event.sender.startDrag({ file: file.path, icon: DRAG_ICON });
    } catch {
      // A file that is gone: nothing to drag (the Exports view shows the error on preview).
    }
  });
  ipcMain.handle(ipcChannels.showInFolder, (event, jobId: unknown) => {
    if (!fromApp(event, win)) return;
    const file = exportFileOf(engine, { job_id: jobId }, apiUrl());
    shell.showItemInFolder(file.path);
  });
  const unsubscribe = app.events.subscribe((event, payload) => {
    const w = win();
    if (w && !w.isDestroyed()) w.webContents.send(ipcChannels.event, { event, payload });
  });
  return () => {
    unsubscribe();
    for (const name of handlerNames) ipcMain.removeHandler(ipcChannels.rpcPrefix + name);
    ipcMain.removeHandler(ipcChannels.showInFolder);
    ipcMain.removeAllListeners(ipcChannels.startDrag);
  };
}
