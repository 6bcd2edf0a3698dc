import type { InboxEntry } from '../../../shared/contract';
import type { Engine } from '../engine';
import { createInbox, inboxesOf, inboxMessages } from '../webhooks';
import { baseUrlOf } from './jobs';
import { APP_USER_ID } from './app-user';

/**
 * The app's webhook inbox (an extension, webhooks/inbox.ts): one capability URL on the local
 * listener, made on first use and kept, so a webhook pointed at it stays valid across restarts.
 */
export function appInbox(engine: Engine, apiUrl: string | null): { url: string | null; entries: InboxEntry[] } {
  const existing = inboxesOf(engine.db, APP_USER_ID)[0]?.token;
  const token = existing ?? createInbox(engine.db, engine.ids, APP_USER_ID, engine.clock.nowMs());
  const entries = inboxMessages(engine.db, token).map((m) => ({ id: m.id, received_ms: m.received_at_ms, body: m.body }));
  return { url: `${baseUrlOf(engine, apiUrl)}/inbox/${token}`, entries };
}
