import { createHash } from 'node:crypto';
import type { Engine } from '../engine';
import { fail } from '../errors';
import { openToken, sealToken, type TokenFormat } from '../reads/sealed-token';
import { secret } from '../reads/secrets';
import { decodeKeyset, encodeKeyset, type Keyset, type SearchType } from './cursor';

// The search cursor clients see, sealed like the timelines' (reads/sealed-token.ts) under its own
// per-data-dir secret. Body: version, type, the first 8 bytes of SHA-256 of the query text (binds
// the cursor to its own search), score, last id: 1 + 1 + 8 + 8 + 8 = 26 bytes, + 16 MAC = 42
// bytes = 56 characters.
const FORMAT: TokenFormat = { version: 1, bodyBytes: 26, what: 'search' };
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

const queryHash = (query: string) => createHash('sha256').update(query, 'utf8').digest().subarray(0, 8);

/** Seals a keyset string from searchPage (its nextCursor or endCursor) for a client. */
export function sealSearchCursor(engine: CursorEngine, query: string, type: SearchType, keysetText: string): string {
  const k = decodeKeyset(keysetText, type);
  const body = Buffer.alloc(FORMAT.bodyBytes);
  body.writeUInt8(FORMAT.version, 0);
  body.writeUInt8(TYPE_CODE[type], 1);
  queryHash(query).copy(body, 2);
  body.writeBigInt64BE(k.type === 'Top' ? k.score : 0n, 10);
  body.writeBigInt64BE(k.id, 18);
  return sealToken(cursorKey(engine), body);
}

/** The keyset string inside a client's cursor, after checking it was made here for this search. */
export function openSearchCursor(engine: CursorEngine, query: string, type: SearchType, token: unknown): string {
  const body = openToken(cursorKey(engine), token, FORMAT);
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
