import type { JobRow } from '../../../../shared/contract';

/** Rate and time left from the job's own progress and start time (the engine's clock). */
export function rateAndEta(job: JobRow, nowMs: number): { rate: number | null; etaMs: number | null } {
  if (job.started_ms === null || job.progress <= 0) return { rate: null, etaMs: null };
  const end = job.finished_ms ?? nowMs;
  const seconds = Math.max(0.001, (end - job.started_ms) / 1000);
  const rate = job.progress / seconds;
  const etaMs = job.status === 'processing' && job.progress_total ? ((job.progress_total - job.progress) / rate) * 1000 : null;
  return { rate, etaMs };
}
