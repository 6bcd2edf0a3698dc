import { app, type BrowserWindow, dialog, Menu, type MenuItemConstructorOptions, shell } from 'electron';
import type { EventHub } from '../engine/handlers/event-hub';

export interface MenuActions {
  window: () => BrowserWindow | null;
  events: EventHub;
  exportsDir: string;
  importPaths: (paths: string[]) => void;
}

const SECTIONS: [string, string][] = [
  ['Home', '/'],
  ['Timeline', '/timeline'],
  ['Search', '/search'],
  ['Jobs', '/jobs'],
  ['Exports', '/exports'],
  ['Settings', '/settings'],
];

/** The native menu with the usual shortcuts; sections on Ctrl/Cmd+1..6 like the sidebar's Alt+1..6. */
export function buildMenu(actions: MenuActions): Menu {
  const isMac = process.platform === 'darwin';
  const go = (path: string) => actions.events.emit('app.navigate', { path });
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        {
          label: 'Import Files…',
          accelerator: 'CmdOrCtrl+O',
          click: async () => {
            const win = actions.window();
            const picked = win
              ? await dialog.showOpenDialog(win, { title: 'Import into the corpus', properties: ['openFile', 'openDirectory', 'multiSelections'] })
              : await dialog.showOpenDialog({ title: 'Import into the corpus', properties: ['openFile', 'openDirectory', 'multiSelections'] });
            if (!picked.canceled && picked.filePaths.length) {
              go('/settings');
              actions.importPaths(picked.filePaths);
            }
          },
        },
        { label: 'Open Exports Folder', accelerator: 'CmdOrCtrl+Shift+E', click: () => void shell.openPath(actions.exportsDir) },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'Go',
      submenu: [
        ...SECTIONS.map(([label, path], i): MenuItemConstructorOptions => ({ label, accelerator: `CmdOrCtrl+${i + 1}`, click: () => go(path) })),
        { type: 'separator' },
        { label: 'Find in Corpus', accelerator: 'CmdOrCtrl+F', click: () => go('/search') },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Skein on this machine: docs/api.md', click: () => void shell.openPath(app.getAppPath() + '/docs/api.md') }],
    },
  ];
  return Menu.buildFromTemplate(template);
}
