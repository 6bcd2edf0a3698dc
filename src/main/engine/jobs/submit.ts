import type { Engine } from '../engine';
import { inWriteTx } from '../ledger/tx';
import type { JobKind } from './job-row';
import { notifyJobsChanged } from './notify';
import type { ParsedJob } from './request';
import type { JobParams } from './params';
import { createJob } from './queue/create';
import { planUpstreamWalk } from './upstream/plan';

/**
 * Enqueues a validated job for a user. `alsoInTx` runs in the same transaction (the HTTP route
 * charges the request's own price there), so a refused hold or charge leaves nothing behind.
 * `resumeOf`: the job this one retries (its upstream walk goes on where that one's stopped).
 */
export function submitJob(engine: Engine, userId: number, kind: JobKind, parsed: ParsedJob<JobParams>, alsoInTx?: () => void, resumeOf?: number): number {
  const jobId = inWriteTx(engine.db, () => {
    const id = createJob(engine.db, { userId, kind, params: parsed.params, output: parsed.output, maxRows: parsed.maxRows, nowMs: engine.clock.nowMs() });
    planUpstreamWalk(engine, id, kind, parsed.params, resumeOf);
    alsoInTx?.();
    return id;
  });
  notifyJobsChanged(engine.db);
  return jobId;
}
