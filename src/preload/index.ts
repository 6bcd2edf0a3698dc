import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('skein', { version: 1 });
