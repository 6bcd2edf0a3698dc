import type { HandlerArgs, HandlerName, HandlerResult, SkeinBridge } from '../../../shared/contract';
import { toEngineError } from './errors';
import { createHttpBridge } from './http-bridge';

declare global {
  interface Window {
    /** Set by the preload in the desktop app; absent in a browser (headless mode). */
    skein?: SkeinBridge;
  }
}

/** The one bridge the views use: IPC in the desktop app, HTTP in headless mode. Same code above. */
export const bridge: SkeinBridge = window.skein ?? createHttpBridge();
export const isDesktop = Boolean(window.skein?.desktop);

/** One engine call; every failure arrives as an EngineError (code + words). */
export async function call<K extends HandlerName>(name: K, args: HandlerArgs<K>): Promise<HandlerResult<K>> {
  try {
    return await bridge.send(name, args);
  } catch (err) {
    throw toEngineError(err);
  }
}
