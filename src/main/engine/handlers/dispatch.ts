import { type Handlers, isHandlerName, type Result } from '../../../shared/contract';
import { toAppError } from './to-app-error';

/**
 * One call from a transport: an unknown name is refused before any work, a failure becomes the
 * contract's {code, message}. Both transports (IPC, HTTP) go through here, so they behave alike.
 */
export async function dispatch(handlers: Handlers, name: string, args: unknown): Promise<Result<unknown>> {
  if (!isHandlerName(name)) return { ok: false, error: { code: 'not_found', message: `No handler named '${name.slice(0, 80)}'.` } };
  try {
    const fn = handlers[name] as (a: unknown) => Promise<unknown>;
    return { ok: true, value: await fn(args ?? {}) };
  } catch (err) {
    return { ok: false, error: toAppError(err) };
  }
}
