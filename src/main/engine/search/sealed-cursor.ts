import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Engine } from '../engine';
import { fail } from '../errors';
import { secret } from '../reads/secrets';
import { decodeKeyset, encodeKeyset, type Keyset, type SearchType } from './cursor';

// The search cursor clients see: the timelines' scheme (reads/cursor.ts) for a search keyset.
// Same construction: a fixed binary body, HMAC-SHA256 truncated to 128 bits under a per-data-dir
// secret (reads/secrets.ts), base64url. Body: version, type, the first 8 bytes of SHA-256 of the
// query text (binds the cursor to its own search), score, last id: 1 + 1 + 8 + 8 + 8 = 26 bytes,
// + 16 MAC = 42 bytes = 56 characters, URL-safe as is.
const VERSION = 1;
const MAC_BYTES = 16;
const BODY_BYTES = 26;
const TOKEN = /^[A-Za-z0-9_-]{56}$/;
const CURSOR_SECRET = 'search_cursor';
const TYPE_CODE: Record<SearchType, number> = { Latest: 1, Top: 2 };
const TYPE_OF: Record<number, SearchType> = { 1: 'Latest', 2: 'Top' };

type CursorEngine = Pick<Engine, 'db' | 'ids' | 'clock'>;
const keys = new WeakMap<object, Buffer>();
function cursorKey(engine: CursorEngine): Buffer {
  let key = keys.get(engine.db);
  if (!key) {
    key = secret(engine, CURSOR_SECRET);
    keys.set(engine.db, key);
  }
  return key;
}

const mac = (key: Buffer, body: Buffer) => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
const queryHash = (query: string) => createHash('sha256').update(query, 'utf8').digest().subarray(0, 8);

/** Seals a keyset string from searchPage (its nextCursor or endCursor) for a client. */
export function sealSearchCursor(engine: CursorEngine, query: string, type: SearchType, keysetText: string): string {
  const k = decodeKeyset(keysetText, type);
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(VERSION, 0);
  body.writeUInt8(TYPE_CODE[type], 1);
  queryHash(query).copy(body, 2);
  body.writeBigInt64BE(k.type === 'Top' ? k.score : 0n, 10);
  body.writeBigInt64BE(k.id, 18);
  return Buffer.concat([body, mac(cursorKey(engine), body)]).toString('base64url');
}

/** The keyset string inside a client's cursor, after checking it was made here for this search. */
export function openSearchCursor(engine: CursorEngine, query: string, type: SearchType, token: unknown): string {
  if (Array.isArray(token)) throw fail.invalid('cursor', 'give it once, not several times.');
  if (token === '') {
    throw fail.invalid('cursor', 'it is empty. Omit cursor for the first page; an empty next_cursor means the search has no more tweets.');
  }
  if (typeof token !== 'string' || !TOKEN.test(token)) {
    throw fail.invalid('cursor', 'not a cursor Skein issued. Pass next_cursor from the previous page unchanged (URL-encoded).');
  }
  const raw = Buffer.from(token, 'base64url');
  const body = raw.subarray(0, BODY_BYTES);
  const given = raw.subarray(BODY_BYTES);
  // 56 characters are exactly 42 bytes, so every token decodes canonically; the MAC decides.
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(cursorKey(engine), body)) || body.readUInt8(0) !== VERSION) {
    throw fail.invalid('cursor', 'it was altered or not issued by this Skein. Pass next_cursor from the previous page unchanged.');
  }
  const sealedType = TYPE_OF[body.readUInt8(1)];
  if (sealedType !== type) {
    throw fail.invalid('cursor', `it belongs to a ${sealedType ?? 'different'} search; send the same type as the first page.`);
  }
  if (!body.subarray(2, 10).equals(queryHash(query))) {
    throw fail.invalid('cursor', 'it belongs to another query; a cursor is valid only with the query that returned it, unchanged.');
  }
  const id = body.readBigInt64BE(18);
  const keyset: Keyset = type === 'Top' ? { type, score: body.readBigInt64BE(10), id } : { type, id };
  return encodeKeyset(keyset);
}
