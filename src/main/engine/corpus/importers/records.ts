import type { Db } from '../../store/db';
import { upsertArticleDetails } from '../write/article';
import { CorpusInputError } from '../write/input-error';
import { isRecord } from '../write/json';
import type { Outcome } from '../write/upsert';
import { upsertSpace } from '../write/space';
import { upsertTweet } from '../write/tweet';
import { parseTimestampUs } from '../write/time';
import { isV1Status, v1ToTweet } from './v1';
import { isV2Page, v2Context, v2ToTweet } from './v2';

// One parsed value from a file -> writes. The shape decides: a service Tweet, article details, a
// Space, a timeline page, a v1.1 status, a v2 page, or an array of any of these. Each record's
// outcome (or the reason it was skipped) goes to `tally`.

type Obj = Record<string, unknown>;

/** An outcome, or a skip; `problem` skips are listed with file and line, the others only counted. */
export type Tally = (outcome: Outcome | { skipped: string; detail?: string; problem?: boolean }) => void;

export interface RecordContext {
  db: Db;
  retrievedAtMs: number;
  tally: Tally;
}

/** What a value looks like, for detection messages and per-file format names. */
export function shapeOf(v: unknown): string {
  if (Array.isArray(v)) return v.length ? shapeOf(v[0]) : 'empty array';
  if (!isRecord(v)) return 'not an object';
  if (isV2Page(v)) return 'Twitter API v2 (twarc2)';
  if (Array.isArray(v.tweets) && 'next_cursor' in v) return 'service timeline page';
  if (isRecord(v.article) && v.tweet_created_at !== undefined) return 'service article details';
  if (isRecord(v.creator) && typeof v.state === 'string') return 'service space';
  if (v.tweet_created_at !== undefined) return 'service tweet';
  if (isV1Status(v)) return 'Twitter API v1.1';
  if (isRecord(v.tweet)) return 'X archive tweet';
  return 'unknown';
}

/**
 * Whether an error stops the whole import (the disk, the database) rather than one record. A record
 * that breaks a constraint or trips over its own odd shape is refused and the file goes on.
 */
export function isFatal(err: unknown): boolean {
  if (err instanceof CorpusInputError) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    return !/^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code);
  }
  return !(err instanceof TypeError || err instanceof RangeError);
}

function write(ctx: RecordContext, fn: () => Outcome): void {
  try {
    ctx.tally(fn());
  } catch (err) {
    if (isFatal(err)) throw err;
    ctx.tally({ skipped: 'invalid record', detail: (err as Error).message, problem: true });
  }
}

const STREAM_NOTICES = ['delete', 'limit', 'scrub_geo', 'status_withheld', 'user_withheld', 'disconnect', 'warning'];

export function importValue(ctx: RecordContext, v: unknown): void {
  if (Array.isArray(v)) {
    for (const item of v) importValue(ctx, item);
    return;
  }
  if (!isRecord(v)) {
    ctx.tally({ skipped: 'not a record (not a JSON object)' });
    return;
  }
  const options = { retrievedAtMs: ctx.retrievedAtMs };
  const shape = shapeOf(v);
  switch (shape) {
    case 'Twitter API v2 (twarc2)':
      return importV2Page(ctx, v);
    case 'service timeline page':
      for (const t of v.tweets as unknown[]) write(ctx, () => upsertTweet(ctx.db, t, options));
      return;
    case 'service article details':
      return write(ctx, () => upsertArticleDetails(ctx.db, v, options));
    case 'service space':
      return write(ctx, () => upsertSpace(ctx.db, v, options));
    case 'service tweet':
      return write(ctx, () => upsertTweet(ctx.db, v, options));
    case 'Twitter API v1.1':
      return write(ctx, () => upsertTweet(ctx.db, v1ToTweet(v), options));
  }
  const notice = STREAM_NOTICES.find((k) => k in v);
  if (notice) return ctx.tally({ skipped: `v1.1 stream notice ('${notice}'), not a post` });
  if (typeof v.created_at === 'string' && (typeof v.text === 'string' || typeof v.full_text === 'string') && !isRecord(v.user)) {
    return ctx.tally({ skipped: 'invalid record', detail: 'a v1.1 status without its user object: whose post it is cannot be told', problem: true });
  }
  if ('job_id' in v) return ctx.tally({ skipped: 'a job status, not data (import the job\'s data file instead)' });
  ctx.tally({ skipped: 'unknown record shape', detail: `not a post, article or space this importer knows (keys: ${Object.keys(v).slice(0, 8).join(', ')})`, problem: true });
}

function importV2Page(ctx: RecordContext, page: Obj): void {
  const data = Array.isArray(page.data) ? page.data : isRecord(page.data) ? [page.data] : [];
  if (data.length === 0) {
    ctx.tally({ skipped: 'v2 page without data (an error or empty response)', detail: Array.isArray(page.errors) ? JSON.stringify(page.errors).slice(0, 200) : undefined });
    return;
  }
  const twarc = isRecord(page.__twarc) ? page.__twarc : undefined;
  const stamped = typeof twarc?.retrieved_at === 'string' ? parseTimestampUs(twarc.retrieved_at) : NaN;
  const retrievedAtMs = Number.isNaN(stamped) ? ctx.retrievedAtMs : Math.floor(stamped / 1000);
  const v2 = v2Context(page);
  const options = { retrievedAtMs };
  // Referenced tweets (replied-to, quoted, retweeted) are stored too, uncounted, best effort:
  // they make the conversation and quote links of the page's own posts resolvable. One that is
  // also among the page's own posts (twarc2 lookups repeat it) is left to the counted write, or a
  // fresh import would report the post as already stored.
  const own = new Set(data.map((t) => (isRecord(t) ? t.id : undefined)));
  for (const t of v2.tweetsById.values()) {
    if (own.has(t.id)) continue;
    try {
      upsertTweet(ctx.db, v2ToTweet(t, v2), { retrievedAtMs: retrievedAtMs - 1 });
    } catch (err) {
      if (isFatal(err) && !(err instanceof Error && /^no author_id/.test(err.message))) throw err;
    }
  }
  for (const t of data) {
    if (!isRecord(t)) {
      ctx.tally({ skipped: 'not a record (not a JSON object)' });
      continue;
    }
    let tweet: Obj;
    try {
      tweet = v2ToTweet(t, v2);
    } catch (err) {
      ctx.tally({ skipped: 'invalid record', detail: `v2 tweet ${String(t.id)}: ${(err as Error).message}`, problem: true });
      continue;
    }
    write(ctx, () => upsertTweet(ctx.db, tweet, options));
  }
}
