import { fail } from '../errors';
import { openToken, sealToken, type TokenFormat } from './sealed-token';

// A timeline cursor, sealed by sealed-token.ts: version, kind, user id, last post id, then the
// MAC. 1 + 1 + 8 + 8 + 16 = 34 bytes, 46 base64url characters. Kind and user inside it bind it
// to its own timeline.
const FORMAT: TokenFormat = { version: 1, bodyBytes: 18, what: 'timeline' };

export type TimelineKind = 'tweets' | 'tweets-and-replies';
const KIND_CODE: Record<TimelineKind, number> = { tweets: 1, 'tweets-and-replies': 2 };
const KIND_OF: Record<number, TimelineKind> = { 1: 'tweets', 2: 'tweets-and-replies' };

export interface CursorPosition {
  kind: TimelineKind;
  userId: bigint;
  /** The last (oldest) post id of the page this cursor follows. */
  lastId: bigint;
}

export function encodeCursor(key: Buffer, pos: CursorPosition): string {
  const body = Buffer.alloc(FORMAT.bodyBytes);
  body.writeUInt8(FORMAT.version, 0);
  body.writeUInt8(KIND_CODE[pos.kind], 1);
  body.writeBigInt64BE(pos.userId, 2);
  body.writeBigInt64BE(pos.lastId, 10);
  return sealToken(key, body);
}

/** The position a cursor holds, after checking it was made here and for this very timeline. */
export function decodeCursor(key: Buffer, token: unknown, expected: { kind: TimelineKind; userId: bigint }): CursorPosition {
  const body = openToken(key, token, FORMAT);
  const kind = KIND_OF[body.readUInt8(1)];
  const userId = body.readBigInt64BE(2);
  const lastId = body.readBigInt64BE(10);
  if (kind !== expected.kind || userId !== expected.userId) {
    throw fail.invalid('cursor', `it belongs to another timeline (/social/user/${userId}/${kind ?? '?'}); a cursor is valid only for the timeline that returned it.`);
  }
  return { kind, userId, lastId };
}
