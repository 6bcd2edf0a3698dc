import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  type EventName,
  type Events,
  type HandlerArgs,
  type HandlerName,
  type HandlerResult,
  ipcChannels,
  type Result,
  type SkeinBridge,
} from '../shared/contract';

// The contract exposed to the sandboxed page, and nothing else: no ipcRenderer, no Node. Calls
// resolve with the value or reject with the engine's {code, message} (a plain object crosses the
// context bridge intact; an Error would lose its code).
const bridge = {
  async send<K extends HandlerName>(name: K, args: HandlerArgs<K>): Promise<HandlerResult<K>> {
    const result = (await ipcRenderer.invoke(ipcChannels.rpcPrefix + name, args)) as Result<HandlerResult<K>>;
    if (result.ok) return result.value;
    throw result.error;
  },
  on<E extends EventName>(event: E, cb: (payload: Events[E]) => void): () => void {
    const listener = (_e: Electron.IpcRendererEvent, message: { event: EventName; payload: unknown }) => {
      if (message?.event === event) cb(message.payload as Events[E]);
    };
    ipcRenderer.on(ipcChannels.event, listener);
    return () => ipcRenderer.removeListener(ipcChannels.event, listener);
  },
  async pathForFile(file: File): Promise<string> {
    return webUtils.getPathForFile(file);
  },
  desktop: {
    startDrag(jobId: number): void {
      ipcRenderer.send(ipcChannels.startDrag, jobId);
    },
    async showInFolder(jobId: number): Promise<void> {
      await ipcRenderer.invoke(ipcChannels.showInFolder, jobId);
    },
  },
} satisfies SkeinBridge;

contextBridge.exposeInMainWorld('skein', bridge);
