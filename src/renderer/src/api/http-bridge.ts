import type { EventName, Events, HandlerArgs, HandlerName, HandlerResult, SkeinBridge } from '../../../shared/contract';
import { markDown, markUp } from './connection';
import { EngineError } from './errors';

/** Between two attempts to reach a server that went away (a restart takes a second or two). */
const RECONNECT_MS = 1_000;
const SESSION_REFUSED = 'Forbidden: missing or wrong session token';

/**
 * The contract over HTTP for headless mode: calls are POST /app/rpc/<name>, events arrive on one
 * shared EventSource. The session token comes from the meta tag the server put into index.html;
 * the event stream is authorised by the session cookie the page came with (never a token in a URL).
 * A tab outlives a restart of its server: a refused session is renewed from GET /app/session (the
 * same page-only protection as the page itself), and a server that went away is polled until it is
 * back, then the event stream is opened again and the views refresh (api/connection.ts).
 */
export function createHttpBridge(): SkeinBridge {
  let token = document.querySelector<HTMLMetaElement>('meta[name="skein-token"]')?.content ?? '';
  let source: EventSource | null = null;
  const listeners = new Map<string, Set<EventListener>>();
  let renewing: Promise<boolean> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;

  /** Asks the server for its current session (and cookie); false when it does not answer. */
  function renew(): Promise<boolean> {
    renewing ??= (async () => {
      try {
        const res = await fetch('/app/session', { headers: { 'x-skein-session': '1' }, cache: 'no-store' });
        const body = (await res.json()) as { value?: { token?: string } };
        if (!res.ok || !body.value?.token) return false;
        token = body.value.token;
        return true;
      } catch {
        return false;
      } finally {
        renewing = null;
      }
    })();
    return renewing;
  }

  /** The server went away: say so once, and try again until it is back with a session. */
  function lost(): void {
    markDown();
    if (retry) return;
    const attempt = async () => {
      retry = null;
      if (await renew()) {
        reopenEvents();
        markUp();
      } else retry = setTimeout(() => void attempt(), RECONNECT_MS);
    };
    retry = setTimeout(() => void attempt(), RECONNECT_MS);
  }

  function openEvents(): void {
    const opened = new EventSource('/app/events');
    source = opened;
    for (const [event, set] of listeners) for (const listener of set) opened.addEventListener(event, listener);
    // CONNECTING after an error: the server is gone and the browser retries by itself; CLOSED: it
    // answered but refused (a restarted server with another session). Either way, reconnect here.
    opened.onerror = () => {
      if (source === opened) lost();
    };
  }

  function reopenEvents(): void {
    source?.close();
    source = null;
    if (listeners.size > 0) openEvents();
  }

  async function request(path: string, init: RequestInit, renewed = false): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-skein-token': token } });
    } catch {
      lost();
      throw new EngineError({ code: 'internal', message: 'Skein is not reachable: is `skein serve` still running? This page reconnects by itself.' });
    }
    const text = await res.text();
    let body: { value?: unknown; error?: { code: string; message: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new EngineError({ code: 'internal', message: `Unexpected answer from Skein (HTTP ${res.status}).` });
    }
    // The server restarted under this page: take its new session and send the call again, once.
    if (res.status === 403 && !renewed && body.error?.message?.startsWith(SESSION_REFUSED) && (await renew())) {
      reopenEvents();
      markUp();
      return request(path, init, true);
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
      const listener = ((e: MessageEvent<string>) => cb(JSON.parse(e.data) as Events[E])) as EventListener;
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      if (source) source.addEventListener(event, listener);
      else openEvents();
      return () => {
        set.delete(listener);
        source?.removeEventListener(event, listener);
      };
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
