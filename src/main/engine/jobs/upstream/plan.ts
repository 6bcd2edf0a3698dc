import type { Engine } from '../../engine';
import type { Db } from '../../store/db';
import { currentConfig } from '../../upstream/gateway';
import { upstreamPaths } from '../../upstream/paths';
import type { JobKind } from '../job-row';
import type { JobParams, RepliesParams, SearchParams, TimelineParams } from '../params';

// Whether a new job walks the upstream before it writes its file, and the upstream search it
// walks (docs/decisions.md "Upstream: jobs"). Decided once, when the job is created, from the mode
// then in force: a job started offline never asks the upstream, even if it resumes after a mode
// change. The walk's first request is kept in job_upstream; its pages follow the upstream's cursors.

/**
 * The upstream's synchronous search for a job: a search job's own query with its since_id/max_id
 * as the operators the real service documents, newest first or Top; a reply job's conversation
 * (`conversation_id:<root>`, spec 4.6: the replies are found through it, and levels 1 and 2 under
 * the post are picked from the stored conversation afterwards). A timeline job walks the user's
 * timeline itself (spec 4.1 or 4.2: the same pages the timeline reads fetch), from its first page.
 */
export function upstreamRequestFor(db: Db, profile: 'socialdata' | 'spec', kind: JobKind, params: JobParams): string {
  const paths = upstreamPaths(profile);
  if (kind === 'timeline') {
    const p = params as TimelineParams;
    return paths.timeline(p.timeline, p.user_id);
  }
  if (kind === 'search') {
    const p = params as SearchParams;
    const bounds = `${p.since_id ? ` since_id:${p.since_id}` : ''}${p.max_id ? ` max_id:${p.max_id}` : ''}`;
    return paths.search(`${p.query}${bounds}`, { type: p.type });
  }
  const p = params as RepliesParams;
  const root = db.prepare('SELECT conversation_id FROM posts WHERE id = ?').safeIntegers(true).pluck().get(BigInt(p.tweet_id)) as bigint | undefined;
  const conversation = root && root !== 0n ? root : BigInt(p.tweet_id);
  return paths.search(`conversation_id:${conversation}${p.since_id ? ` since_id:${p.since_id}` : ''}`, { type: 'Latest' });
}

/**
 * In the job's creating transaction: its walk through the upstream, when the mode asks for one. A
 * retry (`resumeOf`: the failed job) of the same walk takes over where that one stopped, cursor and
 * counts, so the pages it stored are neither fetched nor paid for again (an outage of 24 h or a
 * full disk ends a job; Retry goes on from its last page).
 */
export function planUpstreamWalk(engine: Pick<Engine, 'db' | 'clock'>, jobId: number, kind: JobKind, params: JobParams, resumeOf?: number): void {
  const config = currentConfig(engine);
  if (!config || config.mode === 'offline') return;
  const request = upstreamRequestFor(engine.db, config.profile, kind, params);
  engine.db.prepare('INSERT INTO job_upstream (job_id, request, updated_at_ms) VALUES (?, ?, ?)').run(jobId, request, engine.clock.nowMs());
  if (resumeOf === undefined) return;
  engine.db
    .prepare(
      `UPDATE job_upstream SET (cursor, pages, items, done) = (SELECT cursor, pages, items, done FROM job_upstream WHERE job_id = @old AND request = @request)
       WHERE job_id = @id AND EXISTS (SELECT 1 FROM job_upstream WHERE job_id = @old AND request = @request)`,
    )
    .run({ id: jobId, old: resumeOf, request });
}
