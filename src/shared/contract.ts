// THE contract between the renderer and the engine, in Actual Budget's style: one map of handlers
// (name -> (args) => Promise<result>) and one map of events. The engine implements Handlers once
// (src/main/engine/handlers); the desktop shell carries them over IPC (preload + ipcMain.handle),
// headless mode over HTTP (POST /app/rpc/<name>) and server-sent events (GET /app/events).
//
// Everything that crosses is JSON-safe: 64-bit ids travel as decimal strings (the `_str` fields),
// never as JS numbers, so the same values survive IPC's structured clone and HTTP's JSON. Where the
// exact spec JSON matters (the raw JSON view), it crosses as text written by the serializer.
import type { ErrorCode } from '../main/engine/errors';

// ---------------------------------------------------------------------------------------------
// Errors: {code, message} from the engine's catalogue (src/main/engine/errors.ts). 'unavailable'
// is the app's own code for a capability this build does not have yet.
export type AppErrorCode = ErrorCode | 'unavailable';

export interface AppError {
  code: AppErrorCode;
  message: string;
  /** Search syntax errors: 1-based column and length of the offending text, to underline it. */
  position?: { column: number; length: number };
}

// ---------------------------------------------------------------------------------------------
// Spec shapes (section 2), with ids as strings.
export interface Entities {
  user_mentions: { id_str: string; name: string; screen_name: string; indices: [number, number] }[];
  urls: { display_url: string; expanded_url: string; url: string; indices: [number, number] }[];
  hashtags: { text?: string; indices?: [number, number] }[];
  symbols: { text?: string; indices?: [number, number] }[];
  timestamps?: unknown[];
}

export interface TweetUser {
  id_str: string;
  name: string;
  screen_name: string;
  location: string;
  url: string | null;
  description: string;
  protected: boolean;
  verified: boolean;
  followers_count: number;
  friends_count: number;
  listed_count: number;
  favourites_count: number;
  statuses_count: number;
  created_at: string;
  profile_banner_url: string;
  profile_image_url_https: string;
  can_dm: boolean;
}

export interface Tweet {
  tweet_created_at: string;
  id_str: string;
  text: null;
  full_text: string;
  source: string;
  truncated: boolean;
  in_reply_to_status_id_str: string | null;
  in_reply_to_user_id_str: string | null;
  in_reply_to_screen_name: string | null;
  user: TweetUser;
  quoted_status_id_str: string | null;
  is_quote_status: boolean;
  quote_count: number;
  reply_count: number;
  retweet_count: number;
  favorite_count: number;
  lang: string;
  entities: Entities;
  views_count: number;
  bookmark_count: number;
  wallet_address?: string;
}

export interface ArticleBlock {
  key: string;
  data: unknown;
  entityRanges: unknown[];
  inlineStyleRanges: { length: number; offset: number; style: string }[];
  text: string;
  type: string;
}

export interface Article {
  published_at: string;
  id_str: string;
  title: string;
  preview_text: string;
  cover_url: string;
  content_state: { blocks: ArticleBlock[]; entityMap: unknown };
  media_entities: unknown[];
}

export interface SpaceCreator {
  id: string;
  is_blue_verified?: boolean;
  has_graduated_access?: boolean;
  profile_image_shape?: string;
  affiliates_highlighted_label?: { label?: { description?: string; badge?: { url?: string } } };
  legacy: {
    name: string;
    screen_name: string;
    description: string;
    location: string;
    created_at: string;
    followers_count: number;
    friends_count: number;
    statuses_count: number;
    verified: boolean;
    profile_image_url_https: string;
    [field: string]: unknown;
  };
}

export interface Space {
  id: string;
  state: string;
  title: string;
  media_key: string;
  created_at: number;
  scheduled_start: number | null;
  started_at: number | null;
  updated_at: number | null;
  ended_at: string | null;
  total_live_listeners: number;
  total_replay_watched: number;
  is_space_available_for_replay: boolean;
  is_locked: boolean;
  disallow_join: boolean;
  creator: SpaceCreator;
  [field: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// View models the app needs beyond the spec.
export interface TourStop {
  /** What this stop shows, in words ("A protected user", "An article post"). */
  label: string;
  kind: 'user' | 'post' | 'article' | 'space' | 'conversation';
  id: string;
}

export interface CorpusSummary {
  users: number;
  posts: number;
  replies: number;
  articles: number;
  spaces: number;
  /** Epoch ms of the oldest and newest post, null for an empty corpus. */
  first_post_ms: number | null;
  last_post_ms: number | null;
  tour: TourStop[];
  /** The corpus holds generated demo data (the first start's demo corpus, `skein seed`) that 'corpus.removeDemo' takes out. */
  holds_demo_data: boolean;
}

/** What 'corpus.removeDemo' (and `skein seed --remove`) took out of the corpus. */
export interface DemoRemoval {
  removed: { users: number; posts: number; articles: number; spaces: number };
  /** Demo ids whose record a newer copy (imported or fetched since) replaced: kept. */
  kept: { users: number; posts: number; spaces: number };
  /** Generated corpora too large to remove this way (`skein seed --scale large|xl`); they stay. */
  left: { scale: string; seed: number }[];
}

export interface TimelinePage {
  next_cursor: string | null;
  tweets: Tweet[];
}

/** A post's place in its conversation (the post page's context; local corpus only). */
export interface PostContext {
  /** The replies above the post, the root first (at most 200, the nearest). */
  ancestors: Tweet[];
  /** More posts above the first ancestor than were walked (open the first one to go on). */
  ancestors_truncated: boolean;
  /** The parent the corpus does not hold (or holds from a protected account): open it to fetch it. */
  missing_parent_id: string | null;
  /** The author's self-thread holding the post, first to last (at most 200); empty when not in one. */
  thread: Tweet[];
  quoted: Tweet | null;
  quoted_missing_id: string | null;
  /** Stored posts that quote this one: the search quoted_tweet_id:<id> lists them. */
  quotes_in_corpus: number;
}

export interface PostDetail {
  tweet: Tweet;
  /** The exact JSON of the spec's post details response (exact integers above 2^53 included). */
  raw_json: string;
}

/** A count of one value of an overview's top list (a hashtag, a mention, a domain...). */
export interface OverviewCount {
  value: string;
  count: number;
}

export type OverviewBucket = 'hour' | 'day' | 'week' | 'month';

/** 'overview.get': what a set of posts (a search query's matches, a user's posts, a finished job's rows) holds, counted in SQLite. */
export interface Overview {
  /**
   * A job's scope carries the search whose matches include every row it wrote (its query, or
   * `conversation_id:<root>` for a reply job): a top-list click searches that AND the entry.
   */
  scope: { query: string } | { user_id: string } | { job_id: number; search_query: string };
  posts: number;
  /** Replies (in reply to a post); quotes (quoting a post and not a reply); the rest are posts. */
  replies: number;
  quotes: number;
  unique_authors: number;
  reply_share: number;
  quote_share: number;
  /** More posts matched than one overview counts (1,000,000): the figures are of the newest. */
  capped: boolean;
  first_post_ms: number | null;
  last_post_ms: number | null;
  bucket: OverviewBucket;
  /** The bucket asked for when it would have made over 1,000 buckets (a coarser one is used), else null. */
  bucket_requested: OverviewBucket | null;
  utc_offset_minutes: number;
  /** One entry a bucket from the first post's to the last's; start_ms is the bucket's start (epoch ms). */
  series: { start_ms: number[]; posts: number[]; replies: number[]; quotes: number[] };
  hashtags: OverviewCount[];
  mentions: OverviewCount[];
  domains: OverviewCount[];
  languages: OverviewCount[];
  clients: OverviewCount[];
}

export interface OverviewArgs {
  /** Exactly one of query, user_id and job_id (a finished job that recorded its rows: JobRow.overview_available). */
  query?: string;
  user_id?: string;
  job_id?: number;
  /** Absent: chosen from the span (<= 2 days hour, <= 90 days day, <= 2 years week, else month). */
  bucket?: OverviewBucket;
  /** Minutes east of UTC the buckets follow (-840..840); absent or 0: UTC. */
  utc_offset_minutes?: number;
  /** Entries of each top list, 1..100 (default 10). */
  top?: number;
}

/** One of a user's top posts (user.topPosts): the post, and the replies to it the corpus holds. */
export interface TopPost {
  tweet: Tweet;
  /** Direct replies to it stored in the corpus (its reply_count is the platform's counter). */
  replies_in_corpus: number;
}

/** 'user.topPosts': a user's most replied-to and most liked posts in the corpus, counted in SQLite. */
export interface UserTopPosts {
  /** At most 5, by reply_count (then newest first); posts without a reply are left out. */
  most_replied: TopPost[];
  /** At most 5, by favorite_count (then newest first); posts without a like are left out. */
  most_liked: TopPost[];
}

/** One reply drawn in the reply-tree picture (post.replyShape). */
export interface ReplyShapeNode {
  id_str: string;
  /** The post it replies to: the tree's root for level 1. */
  parent_id_str: string;
  /** 1 = a direct reply to the root. */
  depth: number;
  /** Null for a protected account's reply (drawn without author or text). */
  screen_name: string | null;
  /** The first 140 characters of its text ('' for a protected account's). */
  text: string;
  created_ms: number;
  /** Direct replies to it in the corpus. */
  replies: number;
  /** Posts in its subtree, itself included. */
  size: number;
  /** Levels of replies under it (0: none). */
  levels_below: number;
}

/**
 * 'post.replyShape': the whole reply tree under a post, for its picture (who replied to whom, by
 * level). Every count is exact; only the nodes sent are bounded: the largest subtrees, at most
 * 2,000, each with its ancestors; the replies left out are counted per post they answer.
 */
export interface ReplyShape {
  root: { id_str: string; screen_name: string | null; text: string; replies: number; size: number };
  /** Parents before children (by size, largest first). */
  nodes: ReplyShapeNode[];
  /** Per post drawn (or the root): its replies not sent as nodes, and the posts in their subtrees. */
  hidden: { parent_id_str: string; replies: number; posts: number; levels_below: number }[];
  /** Every reply under the root, and per level (protected accounts' replies included, counted apart). */
  total: number;
  levels: { depth: number; replies: number; protected: number }[];
  /** The walk stopped at its bound (100 levels, 200,000 replies) with replies still below. */
  more_levels: boolean;
}

export interface SearchCount {
  /** Posts of the corpus that match (public ones, as a search job collects them), at most the cap. */
  count: number;
  /** True when there are more than `count` (the count stopped at its cap). */
  capped: boolean;
  /** An upstream is set (mode not offline): it may hold more than the corpus, so the count is a floor. */
  upstream: boolean;
}

export interface ReplyLevel {
  depth: number;
  /** The newest public replies at this level, at most 1,000 (handlers/reads.ts). */
  tweets: Tweet[];
  /** Every public reply at this level in the corpus: more than tweets.length when the level is cut. */
  total: number;
}

export interface ReplyTree {
  root_id: string;
  levels: ReplyLevel[];
  /** True when a level is cut (total > tweets.length) or more_levels. */
  truncated: boolean;
  /** The walk stopped at its bound (100 levels, 200,000 replies) with replies still below. */
  more_levels: boolean;
}

export interface ArticleDetail {
  tweet: Tweet & { created_at: string; user_screen_name: string };
  article: Article;
  raw_json: string;
}

export interface SpaceDetail {
  space: Space;
  raw_json: string;
}

/** gexf (a network for Gephi) and parquet (typed columns for pandas, Polars, R, DuckDB) are Skein's extensions (issue 16). */
export type OutputFormat = 'json' | 'csv' | 'xlsx' | 'gexf' | 'parquet';
/** How a CSV file is written (issue 16): excel (BOM, formula guard) or plain (for pandas and R). Only with output_format csv. */
export type CsvDialect = 'excel' | 'plain';
/** A GEXF file's time slices (issue 16): its edges play on Gephi's timeline. Only with output_format gexf; without it the graph is static. */
export type GexfSlice = 'hour' | 'day' | 'week';

export interface RepliesJobParams {
  kind: 'replies';
  tweet_id: string;
  since_id?: string;
  max_count?: number;
  compress?: boolean;
  output_format?: OutputFormat;
  csv_dialect?: CsvDialect;
  gexf_dynamic?: GexfSlice;
  /** The analyst's name for the job (issue 15): 1 to 80 characters, shown in Jobs and Exports. */
  name?: string;
}

export interface SearchJobParams {
  kind: 'search';
  query: string;
  type?: 'Latest' | 'Top';
  since_id?: string;
  max_id?: string;
  max_count?: number;
  compress?: boolean;
  output_format?: OutputFormat;
  csv_dialect?: CsvDialect;
  gexf_dynamic?: GexfSlice;
  /** The analyst's name for the job (issue 15): 1 to 80 characters, shown in Jobs and Exports. */
  name?: string;
}

/**
 * A user's timeline to a file (issue 15; our extension, POST /social/user/<user_id>/<timeline>/asyncJob):
 * the user by numeric id; `timeline` is tweets (posts, spec 4.1, the default) or tweets-and-replies (4.2).
 */
export interface TimelineJobParams {
  kind: 'timeline';
  user_id: string;
  timeline?: 'tweets' | 'tweets-and-replies';
  max_count?: number;
  compress?: boolean;
  output_format?: OutputFormat;
  csv_dialect?: CsvDialect;
  gexf_dynamic?: GexfSlice;
  /** The analyst's name for the job (issue 15): 1 to 80 characters, shown in Jobs and Exports. */
  name?: string;
}

export type JobKind = 'replies' | 'search' | 'timeline';

/**
 * The app's job parameters; `confirm_upstream` says the analyst agreed to a walk through the
 * upstream over the confirmation threshold (CreditEstimate.upstream.confirm).
 */
export type JobParams = (RepliesJobParams | SearchJobParams | TimelineJobParams) & { confirm_upstream?: boolean };

export type JobStatus = 'pending' | 'processing' | 'success' | 'error';

export interface JobRow {
  job_id: number;
  kind: JobKind;
  /** The API user that started it ('app' for the app itself). */
  user_name: string;
  /** A timeline job's user's screen name as the corpus knows it now (the job names the id); else null. */
  subject_screen_name: string | null;
  /** The parameters as given (ids as strings). */
  params: Record<string, unknown>;
  status: JobStatus;
  /**
   * The analyst cancelled it. The API's status stays 'error' (the spec has no other end state for a
   * job that did not finish); the app shows it as its own state, not as a failure.
   */
  cancelled: boolean;
  progress: number;
  progress_total: number | null;
  attempts: number;
  /** Words for an error (the job's last error message), for a retry, or for a reply job that found fewer replies than expected; else null. */
  message: string | null;
  credits_used: number;
  created_ms: number;
  started_ms: number | null;
  finished_ms: number | null;
  /** file_deleted_ms/by: set once the file was deleted (Exports > Delete or the retention setting); the job and its charges stay. */
  result: { is_compressed: boolean; datafile_url: string; file_deleted_ms?: number; file_deleted_by?: 'user' | 'retention' } | null;
  /**
   * Skein recorded which posts this job wrote (jobs created since migration 066), so a finished
   * job has an overview of its rows (overview.get with job_id), also after its file is deleted.
   */
  rows_recorded: boolean;
}

export interface CreditEstimate {
  /** Credits the job holds at creation (section 7: the largest cost). */
  hold: number;
  available: number;
  enough: boolean;
  /** How the hold was computed, in words. */
  basis: string;
  /** With an upstream (mode not offline): what the job may fetch from it, and whether to ask first. */
  upstream?: {
    /** The most items the walk may fetch: max_count, or the post's reply_count. */
    items: number;
    usd: number;
    /** Over the confirmation threshold: the job starts only with confirm_upstream. */
    confirm: boolean;
    threshold: number;
    /** What the budget still allows, or null without one. */
    budget_left: number | null;
  };
}

/** A deleted job (Jobs > Delete job): it leaves the lists; its ledger transfers stay. */
export interface DeletedJob {
  job_id: number;
  deleted_ms: number;
  /** The data file that went with it, or null (none, or deleted before). */
  file_name: string | null;
  /** Bytes freed in the exports folder. */
  bytes: number;
}

export interface ExportFile {
  job_id: number;
  /** What the file came from (issue 15): the job's kind, its name if it has one, and its query or post id. */
  job_kind: JobKind;
  job_name: string | null;
  /** The search query (search jobs) or null. */
  job_query: string | null;
  /** The post whose replies were collected (reply jobs) or null. */
  job_tweet_id: string | null;
  /** The user whose timeline was collected (timeline jobs) or null. */
  job_user_id: string | null;
  file_name: string;
  format: OutputFormat;
  is_compressed: boolean;
  rows: number;
  bytes: number;
  finished_ms: number;
  datafile_url: string;
  /** Absolute path on this machine (drag-out, show in folder). */
  path: string;
  /**
   * 'kept': in the exports folder; 'deleted': deleted in Exports or by the retention setting (the
   * job and its charges stay; the URL answers 410); 'missing': gone from the folder outside Skein.
   */
  file_state: 'kept' | 'deleted' | 'missing';
  deleted_ms: number | null;
  deleted_by: 'user' | 'retention' | null;
  /** The job recorded which posts it wrote (JobRow.rows_recorded): its rows have an overview. */
  rows_recorded: boolean;
}

/** One data file deleted: what it freed, when, and by whom. */
export interface DeletedExport {
  job_id: number;
  file_name: string;
  /** Bytes freed (0 when the file was gone from the folder already). */
  bytes: number;
  deleted_ms: number;
  deleted_by: 'user' | 'retention';
}

/**
 * How long finished data files are kept (server-side; applied at start, hourly and after each job).
 * 'size' keeps the newest files within `gb` (1 GB = 1024^3 bytes), deleting the oldest first; the
 * newest file is always kept.
 */
export type RetentionPolicy = { keep: 'all' } | { keep: 'days'; days: number } | { keep: 'size'; gb: number };

export interface RetentionState {
  policy: RetentionPolicy;
  /** The policy in words ("keep 30 days"). */
  policy_text: string;
  updated_ms: number | null;
  /** The finished files in the exports folder now, and their total size. */
  files: number;
  bytes: number;
}

/** The app's and the CLI's way to set it: keep 'all', 'days' with days, or 'gb' with gb. */
export interface RetentionArgs {
  keep: 'all' | 'days' | 'gb';
  days?: number;
  gb?: number;
  /** Only say what it would delete now; change nothing. */
  dry_run?: boolean;
}

export interface RetentionResult {
  state: RetentionState;
  /** What the setting deleted now (with dry_run: what it would delete). */
  deleted: DeletedExport[];
  /** Files due but left for the next sweep (being downloaded). */
  skipped: { job_id: number; file_name: string; why: string }[];
  dry_run: boolean;
}

/**
 * A file in exports/.partial that no running job uses (issue 13): a waiting job's staged rows
 * (paused by a full disk, or waiting for a retry), or what an ended job left behind.
 */
export interface PartialFile {
  file_name: string;
  /** Absolute path on this machine. */
  path: string;
  bytes: number;
  job_id: number | null;
  /** 'waiting': the job resumes from it; 'ended': its job ended; 'orphan': no job has it. */
  state: 'waiting' | 'ended' | 'orphan';
  job_status: JobStatus | null;
  /** The job's last error: why it waits, or how it ended. */
  job_message: string | null;
  /** A full disk paused the job. */
  disk_full: boolean;
}

export interface RemovedPartial {
  removed: string[];
  freed_bytes: number;
  /** The waiting job that now collects again from row 0 (nothing charged twice), or null. */
  restarted_job: number | null;
}

export interface ExportPreview {
  columns: string[];
  rows: string[][];
  /** Rows in the file, when known. */
  total_rows: number | null;
}

export interface ApiUserRow {
  id: number;
  name: string;
  builtin: boolean;
  per_minute_limit: number;
  webhook_url: string | null;
  /** Where the webhook's signing secret is kept: the OS keychain, or the database where none answers; null: no secret. */
  webhook_secret_kept_in: 'keychain' | 'database' | null;
  balance: Balance | null;
}

export interface ApiKeyRow {
  id: number;
  user_id: number;
  user_name: string;
  prefix: string;
  created_ms: number;
  revoked_ms: number | null;
  last_used_ms: number | null;
}

export interface Balance {
  posted: number;
  pending: number;
  available: number;
}

export interface LedgerEntry {
  id: string;
  /** Change of the posted balance: positive credits in (a grant), negative credits spent. */
  amount: number;
  /** Change of the credits held for jobs: a hold adds, its posting or release takes away. */
  held: number;
  /** The available balance (posted - held) right after this line, as `skein credits ledger` shows it. */
  available_after: number;
  /** Items the upstream billed for this user's request (kind 'upstream'; the upstream account paid them, so amount is 0); 0 on other lines. */
  upstream_items: number;
  kind: string;
  status: string;
  created_ms: number;
  memo: string;
}

export interface WebhookTestResult {
  url: string;
  /** The receiver answered HTTP 200. */
  ok: boolean;
  http_status: number | null;
  error: string | null;
  /** Carried X-Skein-Signature (the user has a secret). */
  signed: boolean;
  duration_ms: number;
}

export interface WebhookDelivery {
  id: number;
  job_id: number;
  url: string;
  status_code: number | null;
  ok: boolean;
  error: string | null;
  sent_ms: number;
  duration_ms: number | null;
}

export interface InboxEntry {
  id: number;
  received_ms: number;
  body: string;
}

/** 'utf8' refuses a file that is not valid UTF-8; 'latin1' reads it as Latin-1 (Windows-1252). Valid UTF-8 and files with a BOM are read as such either way. */
export type ImportEncoding = 'utf8' | 'latin1';

export interface ImportProgress {
  import_id: string;
  /** The file being read (while running) or a summary of the files (when done). */
  file: string;
  /** Bytes of the current file read so far, and its size (0 when unknown). */
  bytes_done: number;
  bytes_total: number;
  /** Records read so far in this import. */
  records: number;
  /** Final counts, once done. */
  added: number;
  updated: number;
  skipped: number;
  done: boolean;
  /** Why the import stopped, or null. */
  error: string | null;
  /** The first problems found (file:line: message), when done. */
  problems: string[];
  /** One row per file read, once done (issue 15); empty while running and when the import failed. */
  files: ImportFileReport[];
}

/** One file of an import: what was found in it, what it added, and why anything was left out. */
export interface ImportFileReport {
  /** The file's name (a zip's entries as zip!entry). */
  file: string;
  /** The format detected, or "not imported: <why>" for a file refused whole. */
  format: string;
  imported: boolean;
  records: number;
  added: number;
  updated: number;
  /** Left out without a problem (already in the corpus, not a post...). */
  skipped: number;
  /** Left out as a problem (malformed, invalid): `problems` lists them with their line. */
  refused: number;
  /** Every reason with its count, most frequent first, in full. */
  reasons: { reason: string; count: number }[];
  /** The first problems of this file, with their line (0: no line, e.g. a zip entry), in full. */
  problems: { line: number; message: string }[];
  /** Problems of this file not listed (beyond the first ones). */
  more_problems: number;
}

export interface AppInfo {
  version: string;
  mode: 'desktop' | 'headless';
  data_dir: string;
  db_file: string;
  db_bytes: number;
  /** The local API's base URL for scripts, e.g. http://127.0.0.1:7878. */
  api_url: string | null;
  /** Capabilities this build has; views of missing ones show "not available yet". */
  capabilities: Record<Capability, boolean>;
  keychain: KeychainInfo;
  /** The corpus holds demo data 'corpus.removeDemo' takes out (as in 'corpus.summary', without its counts). */
  holds_demo_data: boolean;
}

/** Whether the OS keychain answers; `message` says where secrets go, or why they cannot be kept. */
export interface KeychainInfo {
  available: boolean;
  message: string;
}

export type Capability = 'corpus' | 'reads' | 'search' | 'jobs' | 'keys' | 'credits' | 'webhooks' | 'import';

// ---------------------------------------------------------------------------------------------
// The upstream source (Settings > Sources): the real service or another Skein that reads are
// fetched from and cached in the corpus. Its API key never crosses: only its masked form.
export type UpstreamProfileName = 'socialdata' | 'spec';
export type UpstreamModeName = 'offline' | 'cache-first' | 'refresh';
export type FreshKindName = 'post' | 'page' | 'user' | 'article' | 'space';

export interface UpstreamSourceConfig {
  url: string;
  profile: UpstreamProfileName;
  mode: UpstreamModeName;
  per_minute: number;
  budget_items: number | null;
  /** When the budget was last set: it counts the spending since. */
  budget_set_ms: number | null;
  price_per_item_usd: number;
  /** How long a stored copy of each kind counts as fresh in 'cache-first' mode, in ms. */
  fresh_ms: Record<FreshKindName, number>;
  /** A job whose upstream estimate passes this many items asks first. */
  confirm_over_items: number;
  updated_ms: number;
}

export interface UpstreamSettingsArgs {
  url: string;
  profile: UpstreamProfileName;
  mode?: UpstreamModeName;
  per_minute?: number;
  /** null: no budget. */
  budget_items?: number | null;
  /** Only the kinds given change. */
  fresh_ms?: Partial<Record<FreshKindName, number>>;
  confirm_over_items?: number;
}

export interface UpstreamKeyInfo {
  present: boolean;
  /** "sk_…abcd": the only form of the key that ever leaves the engine. */
  masked: string | null;
  /** Where the key in use comes from. */
  source: 'keychain' | 'environment' | 'session' | 'none';
  /** What the last use of the key taught: 'invalid' with the upstream's reason in `message`. */
  status: 'unknown' | 'valid' | 'invalid';
  message: string | null;
  checked_ms: number | null;
  /** Where a key typed in Settings goes: the OS keychain, this session's memory, or nowhere (this build cannot take one). */
  store: 'keychain' | 'session' | 'none';
  /** Why a typed key goes where `store` says, in words. */
  store_message: string;
  /** The environment variable that gives the key without typing it. */
  env_var: string;
}

export interface UpstreamSpendFigure {
  items: number;
  requests: number;
  /** items at the configured price per item. */
  usd: number;
}

export interface UpstreamSpendRow extends UpstreamSpendFigure {
  api_user_id: number | null;
  /** The local API user's name, when the spend was for one. */
  user_name: string | null;
  /** What caused it: a local API user's read, the app's browsing, a job, the CLI. */
  via: 'api' | 'app' | 'job' | 'cli';
}

export interface UpstreamBudget {
  items: number;
  usd: number;
  spent_items: number;
  spent_usd: number;
  left_items: number;
  left_usd: number;
  set_ms: number | null;
}

export interface UpstreamState {
  /** null: no upstream is set (everything is read from the local corpus). */
  config: UpstreamSourceConfig | null;
  key: UpstreamKeyInfo;
  /** Running totals; days and months are UTC. */
  spend: { today: UpstreamSpendFigure; month: UpstreamSpendFigure; all: UpstreamSpendFigure; by_user: UpstreamSpendRow[] };
  budget: UpstreamBudget | null;
  /** The price used for dollar figures (the configured one, or the real service's published price). */
  price_per_item_usd: number;
}

/** A balance request to the upstream: its answer beside Skein's own figures, or why it failed. */
export type UpstreamTestResult =
  | {
      ok: true;
      /** What the upstream said, in its unit: USD (profile socialdata) or credits, one an item (profile spec). */
      balance: { amount: number; unit: 'usd' | 'credits' };
      /** The same balance in items and in dollars at the configured price. */
      balance_items: number;
      balance_usd: number;
      state: UpstreamState;
    }
  | {
      ok: false;
      /** not_configured, unavailable, key_invalid, out_of_balance, rejected, bad_response. */
      kind: string;
      message: string;
      state: UpstreamState;
    };

// ---------------------------------------------------------------------------------------------
// The handler map. The app's reads of the local corpus are free and not rate limited; jobs it starts
// belong to the built-in API user 'app' (id 1), which holds and is charged their credits.
export interface Handlers {
  'app.info': () => Promise<AppInfo>;

  'corpus.summary': () => Promise<CorpusSummary>;
  /** Takes the demo data out of the corpus; records imported or fetched since, jobs, files and the ledger stay. */
  'corpus.removeDemo': () => Promise<DemoRemoval>;

  /** "@name", "name" or a numeric id -> the user's card. */
  'users.lookup': (args: { user: string }) => Promise<TweetUser>;
  'timeline.page': (args: { user_id: string; kind: 'tweets' | 'tweets-and-replies'; cursor?: string | null }) => Promise<TimelinePage>;
  /** A user's 5 most replied-to and 5 most liked posts in the corpus (403 for a protected account, as its timeline). */
  'user.topPosts': (args: { user_id: string }) => Promise<UserTopPosts>;

  'post.get': (args: { id: string }) => Promise<PostDetail>;
  'post.replies': (args: { id: string }) => Promise<ReplyTree>;
  /** The reply tree's shape for its picture: every reply's parent, level and subtree size (corpus only). */
  'post.replyShape': (args: { id: string }) => Promise<ReplyShape>;
  /** Ancestors up to the root, the self-thread, the quoted post and the count of quotes, from the corpus. */
  'post.context': (args: { id: string }) => Promise<PostContext>;
  'article.get': (args: { id: string }) => Promise<ArticleDetail>;
  'space.get': (args: { id: string }) => Promise<SpaceDetail>;

  'search.page': (args: { query: string; type?: 'Latest' | 'Top'; cursor?: string | null }) => Promise<TimelinePage>;
  /** How many posts of the corpus match a query, counted up to a cap (then `capped`). */
  'search.count': (args: { query: string }) => Promise<SearchCount>;
  /** Posts over time, top hashtags, mentions, domains, languages and clients of a query's matches or a user's posts. */
  'overview.get': (args: OverviewArgs) => Promise<Overview>;

  'jobs.estimate': (args: JobParams) => Promise<CreditEstimate>;
  'jobs.create': (args: JobParams) => Promise<{ job_id: number }>;
  'jobs.list': () => Promise<JobRow[]>;
  'jobs.get': (args: { job_id: number }) => Promise<JobRow>;
  'jobs.cancel': (args: { job_id: number }) => Promise<JobRow>;
  /** A new job with the same parameters (a finished job's file stays as it is). */
  'jobs.retry': (args: { job_id: number }) => Promise<{ job_id: number }>;
  /** What 'jobs.retry' would hold, shown before the new job starts. */
  'jobs.retryEstimate': (args: { job_id: number }) => Promise<CreditEstimate>;
  /** Deletes a finished job and its data file (a running one is refused: cancel it first); its ledger transfers stay. */
  'jobs.delete': (args: { job_id: number }) => Promise<DeletedJob>;

  'exports.list': () => Promise<ExportFile[]>;
  'exports.preview': (args: { job_id: number; rows?: number }) => Promise<ExportPreview>;
  /** Unfinished files in exports/.partial that no running job uses, largest first. */
  'exports.partials': () => Promise<PartialFile[]>;
  /** Removes one; a waiting job's removal makes it collect again from row 0. */
  'exports.removePartial': (args: { file_name: string }) => Promise<RemovedPartial>;
  /** Deletes a finished job's data file; the job row and its ledger transfers stay. */
  'exports.delete': (args: { job_id: number }) => Promise<DeletedExport>;
  /** The retention setting and what the exports folder holds now. */
  'exports.retention': () => Promise<RetentionState>;
  /** Saves the retention setting and applies it at once (dry_run: only says what it would delete). */
  'exports.setRetention': (args: RetentionArgs) => Promise<RetentionResult>;

  'users.list': () => Promise<ApiUserRow[]>;
  'users.setLimit': (args: { user_id: number; per_minute: number }) => Promise<ApiUserRow>;
  'keys.list': () => Promise<ApiKeyRow[]>;
  /** Creates the user when `user` names none yet; the key is shown once, here. */
  'keys.create': (args: { user: string; credits?: number }) => Promise<{ key: string; key_id: number; user_id: number }>;
  'keys.revoke': (args: { key_id: number }) => Promise<ApiKeyRow>;
  'credits.grant': (args: { user_id: number; amount: number }) => Promise<Balance>;
  /** upstream_items: all the items the upstream ever billed for this user's requests (the ledger's upstream account). */
  'credits.ledger': (args: { user_id: number }) => Promise<{ balance: Balance; entries: LedgerEntry[]; upstream_items: number }>;

  /** secret: 16 to 256 printable characters; absent keeps the current one, null removes it. */
  'webhooks.set': (args: { user_id: number; url: string | null; secret?: string | null }) => Promise<ApiUserRow>;
  /** One signed POST of {"event":"test",...} to the user's webhook URL; not a delivery of a job, so not logged. */
  'webhooks.test': (args: { user_id: number }) => Promise<WebhookTestResult>;
  'webhooks.deliveries': (args: { user_id?: number }) => Promise<WebhookDelivery[]>;
  'inbox.get': () => Promise<{ url: string | null; entries: InboxEntry[] }>;

  /** The upstream source: its settings, the key's state (masked), and what was spent there. */
  'upstream.get': () => Promise<UpstreamState>;
  'upstream.set': (args: UpstreamSettingsArgs) => Promise<UpstreamState>;
  /** Removes the source and deletes its key from the keychain (and this session). */
  'upstream.remove': () => Promise<UpstreamState & { removed: boolean }>;
  /** One balance request with the key in use; failures are a result, not an error. */
  'upstream.test': () => Promise<UpstreamTestResult>;
  /** The key typed in Settings: to the OS keychain when one answers, else kept for this session; null forgets it. */
  'upstream.setKey': (args: { key: string | null }) => Promise<UpstreamState>;

  /** Imports files already on this machine (paths from the drop or the picker). */
  /** encoding: how files that are not UTF-8 (and have no byte-order mark) are read; default 'utf8' refuses them. */
  'data.import': (args: { paths: string[]; encoding?: ImportEncoding }) => Promise<{ import_id: string }>;
}

export type HandlerName = keyof Handlers;
export type HandlerArgs<K extends HandlerName> = Parameters<Handlers[K]> extends [] ? void : Parameters<Handlers[K]>[0];
export type HandlerResult<K extends HandlerName> = Awaited<ReturnType<Handlers[K]>>;

/** Handler names, for the transports' allow-lists (an unknown name is refused before any work). */
export const handlerNames = [
  'app.info', 'corpus.summary', 'corpus.removeDemo', 'users.lookup', 'timeline.page', 'user.topPosts', 'post.get', 'post.replies', 'post.replyShape', 'post.context', 'article.get',
  'space.get', 'search.page', 'search.count', 'overview.get', 'jobs.estimate', 'jobs.create', 'jobs.list', 'jobs.get', 'jobs.cancel',
  'jobs.retry', 'jobs.retryEstimate', 'jobs.delete', 'exports.list', 'exports.preview', 'exports.partials', 'exports.removePartial', 'exports.delete', 'exports.retention', 'exports.setRetention', 'users.list', 'users.setLimit', 'keys.list', 'keys.create',
  'keys.revoke', 'credits.grant', 'credits.ledger', 'webhooks.set', 'webhooks.test', 'webhooks.deliveries', 'inbox.get',
  'data.import', 'upstream.get', 'upstream.set', 'upstream.remove', 'upstream.test', 'upstream.setKey',
] as const satisfies readonly HandlerName[];

// Compile-time check that the list above names every handler.
type Missing = Exclude<HandlerName, (typeof handlerNames)[number]>;
const _everyHandlerListed: Missing extends never ? true : Missing = true;
void _everyHandlerListed;

export function isHandlerName(name: string): name is HandlerName {
  return (handlerNames as readonly string[]).includes(name);
}

// ---------------------------------------------------------------------------------------------
// The event map: what the engine tells the renderer without being asked.
export interface Events {
  'job.progress': { job_id: number; status: JobStatus; progress: number; progress_total: number | null };
  /** cancelled: the analyst cancelled it (status stays 'error', as the API says it). */
  'job.finished': { job_id: number; status: 'success' | 'error'; cancelled: boolean; message: string | null };
  'import.progress': ImportProgress;
  'webhook.delivery': WebhookDelivery;
  'inbox.received': InboxEntry;
  /** The desktop menu asks the window to show a section (Ctrl/Cmd+1..6, File > Import). */
  'app.navigate': { path: string };
}

export type EventName = keyof Events;
export const eventNames = ['job.progress', 'job.finished', 'import.progress', 'webhook.delivery', 'inbox.received', 'app.navigate'] as const satisfies readonly EventName[];

// ---------------------------------------------------------------------------------------------
// What the renderer sees: window.skein in the desktop app (preload), an HTTP client in headless.
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export interface SkeinBridge {
  send<K extends HandlerName>(name: K, args: HandlerArgs<K>): Promise<HandlerResult<K>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, cb: (payload: Events[E]) => void): () => void;
  /** A dropped or picked file -> a path the engine can read (desktop: the file's own path;
   *  headless: the file is uploaded into the data dir first). */
  pathForFile(file: File): Promise<string>;
  /** Desktop only: native drag-out and the file manager. */
  desktop?: DesktopBridge;
}

export interface DesktopBridge {
  startDrag(jobId: number): void;
  showInFolder(jobId: number): Promise<void>;
}

/** The IPC channels the preload and main agree on (besides one channel per handler name). */
export const ipcChannels = {
  /** main -> renderer: {event, payload} */
  event: 'skein:event',
  startDrag: 'skein:start-drag',
  showInFolder: 'skein:show-in-folder',
  /** handler calls are on `skein:rpc:<name>` */
  rpcPrefix: 'skein:rpc:',
} as const;
