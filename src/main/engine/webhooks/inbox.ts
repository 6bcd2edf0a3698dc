import type { IdSource } from '../ids';
import { fail } from '../errors';
import type { Db } from '../store/db';

// The webhook inbox (an extension): POST /inbox/<token> keeps what it receives, so a user can
// point their webhook at it and watch deliveries arrive in the app. Bounded: a body of at most
// 64 KiB, the last 100 messages per inbox, 20 inboxes per user.
export const INBOX_MAX_BODY_BYTES = 64 * 1024;
export const INBOX_KEEP = 100;
const INBOXES_PER_USER = 20;

export interface InboxMessage {
  id: number;
  received_at_ms: number;
  content_type: string | null;
  headers: Record<string, string>;
  body: string;
}

export function createInbox(db: Db, ids: IdSource, userId: number, nowMs: number): string {
  const token = ids.randomHex(16);
  db.transaction(() => {
    db.prepare('INSERT INTO webhook_inboxes (token, user_id, created_at_ms) VALUES (?, ?, ?)').run(token, userId, nowMs);
    // The oldest inboxes beyond the limit go, with their messages.
    db.prepare(
      `DELETE FROM webhook_inboxes WHERE user_id = ? AND token NOT IN (SELECT token FROM webhook_inboxes WHERE user_id = ? ORDER BY created_at_ms DESC, rowid DESC LIMIT ?)`,
    ).run(userId, userId, INBOXES_PER_USER);
  }).immediate();
  return token;
}

export function inboxesOf(db: Db, userId: number): { token: string; created_at_ms: number; messages: number }[] {
  return db
    .prepare(
      `SELECT i.token, i.created_at_ms, (SELECT count(*) FROM webhook_inbox_messages m WHERE m.token = i.token) AS messages
       FROM webhook_inboxes i WHERE i.user_id = ? ORDER BY i.created_at_ms DESC`,
    )
    .all(userId) as { token: string; created_at_ms: number; messages: number }[];
}

function knownInbox(db: Db, token: string): void {
  if (!/^[0-9a-f]{32}$/.test(token) || !db.prepare('SELECT 1 FROM webhook_inboxes WHERE token = ?').get(token)) {
    throw fail.notFound('No such inbox.');
  }
}

/** Keeps one POSTed body (the caller has already bounded its size) and drops the oldest beyond INBOX_KEEP. */
export function recordInboxMessage(db: Db, token: string, message: Omit<InboxMessage, 'id'>): number {
  return db.transaction(() => {
    knownInbox(db, token);
    const { lastInsertRowid } = db
      .prepare('INSERT INTO webhook_inbox_messages (token, received_at_ms, content_type, headers_json, body_text) VALUES (?, ?, ?, ?, ?)')
      .run(token, message.received_at_ms, message.content_type, JSON.stringify(message.headers), message.body);
    db.prepare(
      `DELETE FROM webhook_inbox_messages WHERE token = ? AND id NOT IN (SELECT id FROM webhook_inbox_messages WHERE token = ? ORDER BY id DESC LIMIT ?)`,
    ).run(token, token, INBOX_KEEP);
    return Number(lastInsertRowid);
  }).immediate();
}

export function inboxMessages(db: Db, token: string): InboxMessage[] {
  knownInbox(db, token);
  const rows = db
    .prepare('SELECT id, received_at_ms, content_type, headers_json, body_text FROM webhook_inbox_messages WHERE token = ? ORDER BY id DESC')
    .all(token) as { id: number; received_at_ms: number; content_type: string | null; headers_json: string; body_text: string }[];
  return rows.map((r) => ({ id: r.id, received_at_ms: r.received_at_ms, content_type: r.content_type, headers: JSON.parse(r.headers_json) as Record<string, string>, body: r.body_text }));
}
