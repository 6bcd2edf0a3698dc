import type { CreditEstimate, DeletedJob, JobParams, JobRow as AppJobRow } from '../../../shared/contract';
import type { Engine } from '../engine';
import { fail } from '../errors';
import { cancelJob, deleteJob, deletedJobMessage, getJob, notifyJobsChanged, parseRepliesJob, parseSearchJob, parseTimelineJob, submitJob, type JobRow, type RawParams } from '../jobs';
import type { JobKind } from '../jobs/job-row';
import { datafileUrl, jobNote } from '../jobs/status-body';
import { listenerBaseUrl } from '../jobs/base-url';
import { balanceOf } from '../ledger';
import { APP_REQUESTER, APP_USER_ID } from './app-user';
import { ensurePost, ensureUser } from '../upstream/fetch-reads';
import { currentConfig, modeOf } from '../upstream/gateway';
import { spentOfBudget } from '../upstream/spend';
import { idArg, intArg, oneOf, record } from './validate';
import { whenWriteFree } from '../store/when-write-free';

// The job list shows the newest jobs of every user on this machine (the app's and scripts'):
// the analyst owns all of them. 500 rows is months of collections.
const JOB_ROWS = 500;

const KINDS = ['replies', 'search', 'timeline'] as const satisfies readonly JobKind[];

function parse(engine: Engine, raw: unknown) {
  const args = record(raw);
  const kind = oneOf(args, 'kind', KINDS);
  const { kind: _k, tweet_id, user_id, timeline, confirm_upstream: _c, ...rest } = args;
  const params = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null && v !== '')) as RawParams;
  if (kind !== 'replies' && tweet_id !== undefined) throw fail.invalid('tweet_id', `a ${kind} job takes ${kind === 'search' ? 'a query' : 'a user id'}, not a post id.`);
  if (kind !== 'timeline' && (user_id !== undefined || timeline !== undefined)) throw fail.invalid(user_id !== undefined ? 'user_id' : 'timeline', `a ${kind} job does not take it.`);
  if (kind === 'replies') return { kind, parsed: parseRepliesJob(engine.db, tweet_id, params) };
  if (kind === 'timeline') {
    const which = oneOf(args, 'timeline', ['tweets', 'tweets-and-replies'] as const, 'tweets');
    return { kind, parsed: parseTimelineJob(engine.db, user_id, which, params, modeOf(engine) !== 'offline') };
  }
  return { kind, parsed: parseSearchJob(params) };
}

/**
 * Through an upstream, a reply job's post or a timeline job's user may not be stored yet: fetch it
 * first (its reply_count or statuses_count sets the hold), booked as the app's spend.
 */
async function ensureJobSubject(engine: Engine, raw: unknown): Promise<void> {
  const args = record(raw);
  if (modeOf(engine) === 'offline') return;
  if (args.kind === 'replies') await ensurePost(engine, APP_REQUESTER, args.tweet_id, 'tweet_id');
  if (args.kind === 'timeline') await ensureUser(engine, APP_REQUESTER, idArg(args, 'user_id'));
}

/** What the job may fetch from the upstream, and whether the analyst must confirm it first. */
function upstreamEstimate(engine: Engine, kind: JobKind, parsed: { params: unknown; maxRows: number }): CreditEstimate['upstream'] {
  const config = currentConfig(engine);
  if (!config || config.mode === 'offline') return undefined;
  const items = kind === 'search' ? (parsed.params as { max_count: number }).max_count : parsed.maxRows;
  return {
    items,
    usd: items * config.pricePerItemUsd,
    confirm: items > config.confirmOverItems,
    threshold: config.confirmOverItems,
    budget_left: config.budgetItems === null ? null : Math.max(0, config.budgetItems - spentOfBudget(engine.db, config)),
  };
}

/** What starting this job would hold (section 7's rules), before anything is created. */
export async function estimateJob(engine: Engine, raw: unknown): Promise<CreditEstimate> {
  await ensureJobSubject(engine, raw);
  const { kind, parsed } = parse(engine, raw);
  const { available } = balanceOf(engine.db, APP_USER_ID);
  const given = (parsed.params as { max_count?: number }).max_count !== undefined && (record(raw).max_count ?? '') !== '';
  const basis = given
    ? 'max_count'
    : kind === 'search'
      ? 'the default max_count of 20'
      : kind === 'timeline'
        ? modeOf(engine) === 'offline'
          ? 'the posts of this timeline in the corpus'
          : "the user's statuses_count, or the posts of this timeline in the corpus if more"
        : "the post's reply_count, or the replies of levels 1 and 2 in the corpus if more";
  // Starting a job in the app costs nothing besides the hold: the hold is its largest price.
  const upstream = upstreamEstimate(engine, kind, parsed);
  return { hold: parsed.maxRows, available, enough: available >= parsed.maxRows, basis, ...(upstream ? { upstream } : {}) };
}

/**
 * Starts a job as the app's user. The app is not a script: no request price and no rate limit,
 * but the job holds its largest cost from the user 'app' (402 when it cannot) and is charged per
 * row as it collects, exactly as a script's job (spec 7).
 */
export async function createAppJob(engine: Engine, raw: unknown, resumeOf?: number): Promise<{ job_id: number }> {
  await ensureJobSubject(engine, raw);
  const { kind, parsed } = parse(engine, raw);
  const upstream = upstreamEstimate(engine, kind, parsed);
  if (upstream?.confirm && record(raw).confirm_upstream !== true) {
    throw fail.invalid(
      'confirm_upstream',
      `this job may fetch up to ${upstream.items} items ($${upstream.usd.toFixed(2)}) from the upstream, more than the ${upstream.threshold} items over which Skein asks first; confirm it to start.`,
    );
  }
  return { job_id: await whenWriteFree(engine.db, () => submitJob(engine, APP_USER_ID, kind, parsed as never, undefined, resumeOf)) };
}

/** A job row with the names the list shows: its API user's, and a timeline job's subject's screen name. */
type ListedJob = JobRow & { user_name?: string; subject_screen_name?: string | null };

// The subject of a timeline job by the id in its parameters (a 19-digit string: CAST keeps it exact).
const LISTED_JOBS = `SELECT j.*, u.name AS user_name, su.screen_name AS subject_screen_name
  FROM jobs j JOIN api_users u ON u.id = j.user_id
  LEFT JOIN social_users su ON j.kind = 'timeline' AND su.id = CAST(json_extract(j.params_json, '$.user_id') AS INTEGER)`;

function listedJob(engine: Engine, jobId: number): ListedJob {
  return engine.db.prepare(`${LISTED_JOBS} WHERE j.id = ?`).get(jobId) as ListedJob;
}

export function toAppJob(job: ListedJob, baseUrl: string): AppJobRow {
  let params: Record<string, unknown> = {};
  try {
    params = JSON.parse(job.params_json) as Record<string, unknown>;
  } catch {
    params = {};
  }
  return {
    job_id: job.id,
    kind: job.kind,
    user_name: job.user_name ?? '',
    subject_screen_name: job.subject_screen_name ?? null,
    params: { ...params, output_format: job.output_format, compress: job.compress === 1 },
    status: job.status,
    cancelled: job.status === 'error' && job.cancel_requested === 1,
    progress: job.progress,
    progress_total: job.progress_total,
    attempts: job.attempts,
    message: job.status === 'error' ? (job.last_error ?? 'The job failed.') : job.last_error ? `Retrying after: ${job.last_error}` : jobNote(job),
    credits_used: job.charged_credits,
    created_ms: job.created_at_ms,
    started_ms: job.started_at_ms,
    finished_ms: job.finished_at_ms,
    result:
      job.status === 'success' && job.datafile_token && job.result_file
        ? {
            is_compressed: job.is_compressed === 1,
            datafile_url: datafileUrl(baseUrl, job),
            ...(typeof job.file_deleted_at_ms === 'number' ? { file_deleted_ms: job.file_deleted_at_ms, file_deleted_by: job.file_deleted_by ?? 'user' } : {}),
          }
        : null,
    rows_recorded: job.records_posts === 1,
  };
}

export function baseUrlOf(engine: Engine, apiUrl: string | null): string {
  return apiUrl ?? listenerBaseUrl(engine.db) ?? 'http://127.0.0.1:7878';
}

export function listJobs(engine: Engine, apiUrl: string | null): AppJobRow[] {
  // A deleted job (a tombstone, migration 065) is not listed.
  const rows = engine.db.prepare(`${LISTED_JOBS} WHERE j.deleted_at_ms IS NULL ORDER BY j.id DESC LIMIT ?`).all(JOB_ROWS) as ListedJob[];
  const base = baseUrlOf(engine, apiUrl);
  return rows.map((j) => toAppJob(j, base));
}

function jobArg(engine: Engine, raw: unknown): JobRow {
  const jobId = intArg(record(raw), 'job_id', 1, Number.MAX_SAFE_INTEGER);
  const job = getJob(engine.db, jobId);
  if (!job) throw fail.notFound(`Job ${jobId} was not found.`);
  if (job.deleted_at_ms !== null) throw fail.gone(deletedJobMessage(job));
  return job;
}

export function getAppJob(engine: Engine, raw: unknown, apiUrl: string | null): AppJobRow {
  return toAppJob(listedJob(engine, jobArg(engine, raw).id), baseUrlOf(engine, apiUrl));
}

export async function cancelAppJob(engine: Engine, raw: unknown, apiUrl: string | null): Promise<AppJobRow> {
  const job = jobArg(engine, raw);
  await whenWriteFree(engine.db, () => cancelJob(engine.db, job.id, engine.clock.nowMs()));
  return toAppJob(listedJob(engine, job.id), baseUrlOf(engine, apiUrl));
}

/** The parameters a retry starts a new job with: the failed job's own (its file stays as it is). */
function retryArgs(engine: Engine, raw: unknown): JobParams {
  const job = jobArg(engine, raw);
  if (job.status === 'pending' || job.status === 'processing') throw fail.invalid('job_id', `job ${job.id} is still running.`);
  const params = JSON.parse(job.params_json) as Record<string, unknown>;
  if (job.kind === 'timeline') {
    const timeline = params.timeline === 'tweets-and-replies' ? 'tweets-and-replies' : 'tweets';
    return { kind: 'timeline', user_id: String(params.user_id), timeline, ...pick(params, ['max_count', 'csv_dialect', 'gexf_dynamic', 'name']), output_format: job.output_format, compress: job.compress === 1 };
  }
  return job.kind === 'replies'
    ? { kind: 'replies', tweet_id: String(params.tweet_id), ...pick(params, ['since_id', 'max_count', 'csv_dialect', 'gexf_dynamic', 'name']), output_format: job.output_format, compress: job.compress === 1 }
    : { kind: 'search', query: String(params.query), ...pick(params, ['type', 'since_id', 'max_id', 'max_count', 'csv_dialect', 'gexf_dynamic', 'name']), output_format: job.output_format, compress: job.compress === 1 };
}

/** What retrying would hold, so the app shows it before the new job starts, as for a new job. */
export function estimateRetry(engine: Engine, raw: unknown): Promise<CreditEstimate> {
  return estimateJob(engine, retryArgs(engine, raw));
}

/** Retry = a new job with the same parameters, for the app's user (a finished job's file stays). */
export function retryAppJob(engine: Engine, raw: unknown): Promise<{ job_id: number }> {
  // The Retry button asks first, showing retryEstimate (upstream items included): that is the confirmation.
  return createAppJob(engine, { ...retryArgs(engine, raw), confirm_upstream: true }, jobArg(engine, raw).id);
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined && o[k] !== null).map((k) => [k, o[k]]));
}

/**
 * Jobs > Delete job (issue 15): a finished job leaves the list with its data file; its ledger
 * transfers stay (jobs/delete-job.ts). A running job is refused (409): cancel it first.
 */
export async function deleteAppJob(engine: Engine, raw: unknown): Promise<DeletedJob> {
  const job = jobArg(engine, raw);
  const deleted = await whenWriteFree(engine.db, () => deleteJob(engine.db, engine.dataDir, job.id, engine.clock.nowMs()));
  notifyJobsChanged(engine.db);
  return deleted;
}
