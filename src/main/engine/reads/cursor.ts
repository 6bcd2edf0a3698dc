import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../errors';

// A timeline cursor: version, kind, user id, last post id, HMAC. 1 + 1 + 8 + 8 + 16 = 34 bytes,
// 46 base64url characters: URL-safe, so URL-encoding leaves it unchanged. The HMAC (SHA-256
// truncated to 128 bits, ample against forgery at localhost request rates) makes it
// tamper-evident; kind and user inside it bind it to its own timeline.
const VERSION = 1;
const MAC_BYTES = 16;
const BODY_BYTES = 18;
const TOKEN = /^[A-Za-z0-9_-]{46}$/;

export type TimelineKind = 'tweets' | 'tweets-and-replies';
const KIND_CODE: Record<TimelineKind, number> = { tweets: 1, 'tweets-and-replies': 2 };
const KIND_OF: Record<number, TimelineKind> = { 1: 'tweets', 2: 'tweets-and-replies' };

export interface CursorPosition {
  kind: TimelineKind;
  userId: bigint;
  /** The last (oldest) post id of the page this cursor follows. */
  lastId: bigint;
}

function mac(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(key: Buffer, pos: CursorPosition): string {
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(VERSION, 0);
  body.writeUInt8(KIND_CODE[pos.kind], 1);
  body.writeBigInt64BE(pos.userId, 2);
  body.writeBigInt64BE(pos.lastId, 10);
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/** The position a cursor holds, after checking it was made here and for this very timeline. */
export function decodeCursor(key: Buffer, token: unknown, expected: { kind: TimelineKind; userId: bigint }): CursorPosition {
  if (Array.isArray(token)) throw fail.invalid('cursor', 'give it once, not several times.');
  if (token === '') {
    throw fail.invalid('cursor', 'it is empty. Omit cursor for the first page; an empty next_cursor means the timeline has no more tweets.');
  }
  if (typeof token !== 'string' || !TOKEN.test(token)) {
    throw fail.invalid('cursor', 'not a cursor Skein issued. Pass next_cursor from the previous page unchanged (URL-encoded).');
  }
  const raw = Buffer.from(token, 'base64url');
  // 46 characters carry 4 spare bits; a token that does not re-encode to itself was edited there.
  const canonical = raw.toString('base64url') === token;
  const body = raw.subarray(0, BODY_BYTES);
  const given = raw.subarray(BODY_BYTES);
  if (!canonical || given.length !== MAC_BYTES || !timingSafeEqual(given, mac(key, body)) || body.readUInt8(0) !== VERSION) {
    throw fail.invalid('cursor', 'it was altered or not issued by this Skein. Pass next_cursor from the previous page unchanged.');
  }
  const kind = KIND_OF[body.readUInt8(1)];
  const userId = body.readBigInt64BE(2);
  const lastId = body.readBigInt64BE(10);
  if (kind !== expected.kind || userId !== expected.userId) {
    throw fail.invalid('cursor', `it belongs to another timeline (/social/user/${userId}/${kind ?? '?'}); a cursor is valid only for the timeline that returned it.`);
  }
  return { kind, userId, lastId };
}
