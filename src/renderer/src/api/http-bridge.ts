import type { EventName, Events, HandlerArgs, HandlerName, HandlerResult, SkeinBridge } from '../../../shared/contract';
import { markDown, markUp } from './connection';
import { EngineError, UnreachableError } from './errors';

/** Between two attempts to reach a server that went away (a restart takes a second or two). */
const RECONNECT_MS = 1_000;
/** The server's refusal of a browser without the session (src/main/http/routes/app-rpc.ts). */
const NOT_LOGGED_IN = 'Forbidden: this browser is not logged in to Skein';
/** Sent on every call: another site's page could send it only after a CORS preflight Skein refuses. */
const APP_HEADERS = { 'x-skein-app': '1' };

/**
 * The contract over HTTP for headless mode: calls are POST /app/rpc/<name>, events arrive on one
 * shared EventSource. Both are authorised by the session cookie (HttpOnly, SameSite=Strict) the
 * browser got when it opened the login address `skein serve` printed; the page holds no secret.
 * A tab outlives a restart of its server: the cookie stays valid on the same data dir, so a server
 * that went away is polled (GET /app/session) until it is back, then the event stream is opened
 * again and the views refresh (api/connection.ts). A refused session (the login token changed)
 * reloads the page, which then says how to log in.
 */
export function createHttpBridge(): SkeinBridge {
  let source: EventSource | null = null;
  const listeners = new Map<string, Set<EventListener>>();
  let probing: Promise<boolean> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;

  /** The session ended (the data dir's login token changed): the page at / says how to log in again. */
  function loggedOut(): void {
    window.location.assign('/');
  }

  /** Whether the server answers and still knows this browser; false when it does not answer. */
  function probe(): Promise<boolean> {
    probing ??= (async () => {
      try {
        const res = await fetch('/app/session', { headers: APP_HEADERS, cache: 'no-store' });
        const body = (await res.json()) as { value?: unknown; message?: string };
        if (res.status === 403 && body.message?.startsWith(NOT_LOGGED_IN)) loggedOut();
        return res.ok;
      } catch {
        return false;
      } finally {
        probing = null;
      }
    })();
    return probing;
  }

  /** The server went away: say so once, and try again until it is back with a session. */
  function lost(): void {
    markDown();
    if (retry) return;
    const attempt = async () => {
      retry = null;
      if (await probe()) {
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
    // answered but refused (the session ended). Either way the probe decides, from here.
    opened.onerror = () => {
      if (source === opened) lost();
    };
  }

  function reopenEvents(): void {
    source?.close();
    source = null;
    if (listeners.size > 0) openEvents();
  }

  async function request(path: string, init: RequestInit): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...APP_HEADERS } });
    } catch {
      lost();
      throw new UnreachableError();
    }
    const text = await res.text();
    let body: { value?: unknown; error?: { code: string; message: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new EngineError({ code: 'internal', message: `Unexpected answer from Skein (HTTP ${res.status}).` });
    }
    if (res.status === 403 && body.error?.message?.startsWith(NOT_LOGGED_IN)) loggedOut();
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
