import type { Db } from '../store/db';

// The local listener's actual address (http://127.0.0.1:<port>), learned once it listens; data
// file URLs in webhook bodies are built from it. Requests build theirs from their own Host header.
const baseUrls = new WeakMap<Db, string>();

export function setListenerBaseUrl(db: Db, url: string): void {
  baseUrls.set(db, url.replace(/\/+$/, ''));
}

export function listenerBaseUrl(db: Db): string | undefined {
  return baseUrls.get(db);
}
