import type { EventName, Events, HandlerArgs, HandlerName, HandlerResult, SkeinBridge } from '../../../shared/contract';
import { EngineError } from './errors';

/**
 * The contract over HTTP for headless mode: calls are POST /app/rpc/<name>, events arrive on one
 * shared EventSource. The session token comes from the meta tag the server put into index.html.
 */
export function createHttpBridge(): SkeinBridge {
  const token = document.querySelector<HTMLMetaElement>('meta[name="skein-token"]')?.content ?? '';
  let source: EventSource | null = null;

  async function request(path: string, init: RequestInit): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-skein-token': token } });
    } catch {
      throw new EngineError({ code: 'internal', message: 'Skein is not reachable: is `skein serve` still running?' });
    }
    const text = await res.text();
    let body: { value?: unknown; error?: { code: string; message: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new EngineError({ code: 'internal', message: `Unexpected answer from Skein (HTTP ${res.status}).` });
    }
    if (!res.ok || body.error) throw new EngineError((body.error ?? { code: 'internal', message: `HTTP ${res.status}` }) as never);
    return body.value;
  }

  return {
    send<K extends HandlerName>(name: K, args: HandlerArgs<K>): Promise<HandlerResult<K>> {
      return request(`/app/rpc/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args ?? {}),
      }) as Promise<HandlerResult<K>>;
    },
    on<E extends EventName>(event: E, cb: (payload: Events[E]) => void): () => void {
      source ??= new EventSource(`/app/events?token=${encodeURIComponent(token)}`);
      const listener = (e: MessageEvent<string>) => cb(JSON.parse(e.data) as Events[E]);
      source.addEventListener(event, listener as EventListener);
      return () => source?.removeEventListener(event, listener as EventListener);
    },
    async pathForFile(file: File): Promise<string> {
      const value = (await request(`/app/upload?name=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: file,
      })) as { path: string };
      return value.path;
    },
  };
}
