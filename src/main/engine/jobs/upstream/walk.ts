import type { Clock } from '../../clock';
import { SkeinError } from '../../errors';
import type { IdSource } from '../../ids';
import type { Db } from '../../store/db';
import { envKeySource, UPSTREAM_KEY_ENV, type KeySource } from '../../upstream/key-source';
import { clientOf, fetchBilled, isFresh } from '../../upstream/gateway';
import { UpstreamError } from '../../upstream/errors';
import { PAGE_ITEMS_HELD, storeTweetPage } from '../../upstream/fetch-reads';
import { pageByRequest } from '../../upstream/pages';
import { secret } from '../../reads/secrets';
import { JobStateError, TransientJobError, type JobRow } from '../job-row';
import type { SearchParams, TimelineParams } from '../params';

// A job's fetch phase (docs/decisions.md "Upstream: jobs"): page the upstream's synchronous search
// from the job's checkpoint in job_upstream, storing each page's posts in the corpus, its spend
// line (`job:<id>:page:<n>`) and the walk's next cursor in ONE transaction, fenced by the job's
// lock. A job killed at any moment resumes at the first page it has not stored: a stored page is
// never fetched or booked again. Only a page in flight at the moment of the kill is fetched twice
// (the upstream billed an answer Skein never received): at most one page, 20 items, per kill, at
// an upstream that ignores the Idempotency-Key each page is sent with. Another Skein honours it
// and charges that page once.
// The file is then written from the corpus by the ordinary collect phase.

/** A bound on any walk: 50,000 pages of ~20 = a million posts, the largest job (limits.ts). */
export const MAX_WALK_PAGES = 50_000;
/**
 * An outage pauses the job (its attempts are for Skein's own faults): the next try comes after as
 * long as the outage has lasted so far, from 15 s up to 5 min, so a short blip costs seconds and a
 * long one ~12 tries an hour (each try is up to 3 requests, client.ts). After 24 h of nothing the
 * job ends in error, resumable by Retry from its last stored page.
 */
export const PAUSE_MIN_MS = 15_000;
export const PAUSE_MAX_MS = 5 * 60_000;
export const MAX_OUTAGE_MS = 24 * 3_600_000;

export interface WalkContext {
  db: Db;
  clock: Clock;
  ids: IdSource;
  workerId: string;
  /** The key the main thread handed this run (worker threads cannot reach the keychain). */
  upstreamKey?: string | null;
  stopRequested?: () => boolean;
}

interface WalkRow {
  request: string;
  cursor: string | null;
  pages: number;
  items: number;
  done: number;
  paused_since_ms: number | null;
}

export function walkOf(db: Db, jobId: number): WalkRow | undefined {
  return db.prepare('SELECT request, cursor, pages, items, done, paused_since_ms FROM job_upstream WHERE job_id = ?').get(jobId) as WalkRow | undefined;
}

/** A stable, random tag of this data dir (its secret 'upstream_idempotency', first 16 hex). */
function dirTag(ctx: WalkContext): string {
  return secret({ db: ctx.db, ids: ctx.ids, clock: ctx.clock }, 'upstream_idempotency').toString('hex').slice(0, 16);
}

/** The request of the walk's next page: the first request with the upstream's cursor added. */
function pageRequest(walk: WalkRow): string {
  if (walk.cursor === null) return walk.request;
  return `${walk.request}${walk.request.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(walk.cursor)}`;
}

/**
 * How many items the walk needs: a search job's max_count; a timeline job's max_count, or its
 * whole timeline; a reply job's whole conversation.
 */
function wantedItems(job: JobRow): number {
  if (job.kind === 'search') return (JSON.parse(job.params_json) as SearchParams).max_count;
  if (job.kind === 'timeline') return (JSON.parse(job.params_json) as TimelineParams).max_count ?? Number.MAX_SAFE_INTEGER;
  return Number.MAX_SAFE_INTEGER;
}

/**
 * Runs the walk to its end (or to a stop). Upstream failures become the job's: 'unavailable' (5xx,
 * connection, a 429 that does not clear) is transient, so the job waits and resumes from here;
 * a refused key, an empty balance (402), a spent budget or a refused query end it with the reason.
 */
export async function walkUpstream(ctx: WalkContext, job: JobRow): Promise<'done' | 'stopped'> {
  const first = walkOf(ctx.db, job.id);
  if (!first || first.done) return 'done';
  const keys: KeySource = ctx.upstreamKey ? envKeySource({ [UPSTREAM_KEY_ENV]: ctx.upstreamKey }) : envKeySource({});
  const engine = { db: ctx.db, clock: ctx.clock, ids: ctx.ids, upstreamKeys: keys };
  const wanted = wantedItems(job);
  const who = { via: 'job' as const, jobId: job.id, apiUserId: job.user_id };
  // Once per walk, not per page: the client (it reads the limit at each admission anyway) and this
  // data dir's prefix of the pages' Idempotency-Keys, so two Skeins sharing one upstream key never share one.
  // Unattended: it waits out every rate-limit window (a read answers 429 after READ_MAX_RATE_WAIT_MS).
  const client = clientOf(engine, { maxRateWaitMs: Infinity });
  const keyPrefix = `skein:${dirTag(ctx)}:job:${job.id}:page:`;
  for (;;) {
    const walk = walkOf(ctx.db, job.id);
    if (!walk || walk.done) return 'done';
    if (ctx.stopRequested?.()) return 'stopped';
    if (walk.pages >= MAX_WALK_PAGES) {
      advance(ctx, job.id, walk, null, 0);
      return 'done';
    }
    const path = pageRequest(walk);
    // A page another job or read stored while fresh (cache-first) is taken as it is: a retried job
    // pays nothing for the pages its first run already fetched.
    const stored = pageByRequest(ctx.db, path);
    if (stored && isFresh(engine, 'page', stored.fetchedAtMs)) {
      ctx.db.transaction(() => advance(ctx, job.id, walk, stored.nextCursor, stored.postIds.length, wanted))();
      continue;
    }
    try {
      await fetchBilled(
        engine,
        who,
        path,
        PAGE_ITEMS_HELD,
        (body, nowMs) => {
          const page = storeTweetPage(engine, path, body, nowMs);
          advance(ctx, job.id, walk, page.result.nextCursor, page.items, wanted);
          return page;
        },
        `job:${job.id}:page:${walk.pages}`,
        client,
        `${keyPrefix}${walk.pages}`,
      );
    } catch (err) {
      throw asJobError(ctx, job.id, walk, err);
    }
  }
}

/** The walk's checkpoint after a page (inside the page's transaction); the lock fence first. */
function advance(ctx: WalkContext, jobId: number, walk: WalkRow, nextCursor: string | null, items: number, wanted = 0): void {
  const locked = ctx.db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND status = 'processing' AND locked_by = ?`).get(jobId, ctx.workerId);
  if (!locked) throw new JobStateError(`job ${jobId}: lock lost during the upstream walk, page not committed`);
  const total = walk.items + items;
  const done = nextCursor === null || items === 0 || total >= wanted ? 1 : 0;
  const changed = ctx.db
    .prepare('UPDATE job_upstream SET cursor = ?, pages = pages + 1, items = ?, done = ?, paused_since_ms = NULL, updated_at_ms = ? WHERE job_id = ? AND pages = ?')
    .run(nextCursor, total, done, ctx.clock.nowMs(), jobId, walk.pages).changes;
  if (changed !== 1) throw new JobStateError(`job ${jobId}: the upstream walk moved under this worker`);
  ctx.db.prepare('UPDATE jobs SET locked_at_ms = ?, updated_at_ms = ?, attempt_progress = 1 WHERE id = ?').run(ctx.clock.nowMs(), ctx.clock.nowMs(), jobId);
}

/**
 * An upstream failure as run-job.ts tells them apart: a SkeinError ends the job, a TransientJobError
 * pauses it (an outage, counted from its first failed page), another error is retried.
 */
function asJobError(ctx: WalkContext, jobId: number, walk: WalkRow, err: unknown): unknown {
  if (!(err instanceof UpstreamError)) return err;
  if (err.kind !== 'unavailable') return new SkeinError('upstream', err.message);
  const nowMs = ctx.clock.nowMs();
  const sinceMs = walk.paused_since_ms ?? nowMs;
  const lastedMs = nowMs - sinceMs;
  const page = walk.pages + 1;
  if (lastedMs >= MAX_OUTAGE_MS) {
    // Cleared, so a Retry starts a fresh 24 h.
    ctx.db.prepare('UPDATE job_upstream SET paused_since_ms = NULL WHERE job_id = ?').run(jobId);
    return new SkeinError(
      'upstream',
      `The upstream has been unavailable since ${utcTime(sinceMs)} (24 h): ${err.message} Retry the job to resume at page ${page}; the ${walk.pages} pages stored are kept.`,
    );
  }
  if (walk.paused_since_ms === null) ctx.db.prepare('UPDATE job_upstream SET paused_since_ms = ? WHERE job_id = ?').run(sinceMs, jobId);
  const pauseMs = Math.min(PAUSE_MAX_MS, Math.max(PAUSE_MIN_MS, lastedMs));
  return new TransientJobError(
    `Waiting for the upstream (unavailable since ${utcTime(sinceMs)}; next try at ${utcTime(nowMs + pauseMs)}): ${err.message} ${
      walk.pages === 0 ? 'The job starts at its first page once the upstream answers.' : `The job resumes at page ${page}, after the ${walk.pages} pages it stored.`
    }`,
    pauseMs,
  );
}

const utcTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
