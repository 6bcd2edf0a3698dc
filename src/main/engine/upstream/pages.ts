import type { Engine } from '../engine';
import { fail } from '../errors';
import { openToken, sealToken, type TokenFormat } from '../reads/sealed-token';
import { prep } from '../ledger/prep';
import { secret } from '../reads/secrets';
import type { Db } from '../store/db';

// Upstream pages (upstream_pages, migration 054): a timeline or search page fetched from the
// upstream, kept as the ids it returned in its order and the upstream's next cursor. Clients get a
// page cursor naming the page they just read (its seq, sealed like every cursor of ours: version,
// seq, MAC = 25 bytes, 34 characters, so it is told apart from a local timeline cursor (46) and a
// search cursor (56) by length); the upstream's own cursor never leaves Skein.
const FORMAT: TokenFormat = { version: 1, bodyBytes: 9, what: 'upstream page' };
export const PAGE_CURSOR_LENGTH = 34;
const CURSOR_SECRET = 'upstream_page_cursor';

export interface UpstreamPage {
  seq: number;
  request: string;
  fetchedAtMs: number;
  /** The upstream's cursor for the page after this one; null or '' at its end. */
  nextCursor: string | null;
  postIds: bigint[];
}

type CursorEngine = Pick<Engine, 'db' | 'ids' | 'clock'>;
const keys = new WeakMap<object, Buffer>();
function cursorKey(engine: CursorEngine): Buffer {
  let key = keys.get(engine.db);
  if (!key) keys.set(engine.db, (key = secret(engine, CURSOR_SECRET)));
  return key;
}

export function isPageCursor(raw: unknown): raw is string {
  return typeof raw === 'string' && raw.length === PAGE_CURSOR_LENGTH;
}

export function sealPageCursor(engine: CursorEngine, seq: number): string {
  const body = Buffer.alloc(FORMAT.bodyBytes);
  body.writeUInt8(FORMAT.version, 0);
  body.writeBigInt64BE(BigInt(seq), 1);
  return sealToken(cursorKey(engine), body);
}

/** The page a cursor follows; 422 when it was not issued here or names a page no longer kept. */
export function pageOfCursor(engine: CursorEngine, raw: unknown): UpstreamPage {
  const seq = Number(openToken(cursorKey(engine), raw, FORMAT).readBigInt64BE(1));
  const page = pageBySeq(engine.db, seq);
  if (!page) throw fail.invalid('cursor', 'the upstream page it follows is no longer kept; start again without cursor.');
  return page;
}

interface Row {
  seq: number;
  request: string;
  fetched_at_ms: number;
  next_cursor: string | null;
  post_ids: string;
}

const pageOf = (row: Row | undefined): UpstreamPage | undefined =>
  row && { seq: row.seq, request: row.request, fetchedAtMs: row.fetched_at_ms, nextCursor: row.next_cursor, postIds: (JSON.parse(row.post_ids) as string[]).map(BigInt) };

export function pageBySeq(db: Db, seq: number): UpstreamPage | undefined {
  return pageOf(prep(db, 'SELECT * FROM upstream_pages WHERE seq = ?').get(seq) as Row | undefined);
}

export function pageByRequest(db: Db, request: string): UpstreamPage | undefined {
  return pageOf(prep(db, 'SELECT * FROM upstream_pages WHERE request = ?').get(request) as Row | undefined);
}

/** Keeps a fetched page (a refetch of the same request updates it in place, keeping its seq). */
export function storePage(db: Db, request: string, nextCursor: string | null, postIds: readonly bigint[], nowMs: number): UpstreamPage {
  db.prepare(
    `INSERT INTO upstream_pages (request, fetched_at_ms, next_cursor, post_ids) VALUES (?, ?, ?, ?)
     ON CONFLICT (request) DO UPDATE SET fetched_at_ms = excluded.fetched_at_ms, next_cursor = excluded.next_cursor, post_ids = excluded.post_ids`,
  ).run(request, nowMs, nextCursor, JSON.stringify(postIds.map(String)));
  return pageByRequest(db, request)!;
}
