import { statSync } from 'node:fs';
import type { AppInfo, Handlers, KeychainInfo } from '../../../shared/contract';
import type { Engine } from '../engine';
import type { EventHub } from './event-hub';
import { StoreWatcher } from './watch';
import { corpusSummary, removeDemoData } from './corpus';
import { removableSeeds } from '../corpus/seed';
import { articleDetail, lookupUser, postDetail, replyTree, spaceDetail, timelinePage } from './reads';
import { postContext } from './post-context';
import { searchCount, searchResults } from './search';
import { overviewOf } from './overview';
import { postReplyShape, topPostsOf } from './post-shape';
import { cancelAppJob, createAppJob, deleteAppJob, estimateJob, estimateRetry, getAppJob, listJobs, retryAppJob } from './jobs';
import { whenWriteFree } from '../store/when-write-free';
import { deleteExport, listExports, listPartialFiles, previewExport, removePartialFile, retentionState, setRetention } from './exports';
import { appInbox } from './inbox';
import { startImport } from './imports';
import {
  createApiKey, deliveries, grantCredits, ledgerOf, listApiKeys, listUsers, revokeApiKey, setLimit, setWebhook, testWebhook,
} from './settings';
import { removeUpstream, setUpstream, setUpstreamKey, testUpstream, upstreamState, type UpstreamKeyStore } from './upstream';

export interface HandlerDeps {
  events: EventHub;
  mode: 'desktop' | 'headless';
  /** The local API's base URL once it listens (scripts, datafile links), or null. */
  apiUrl(): string | null;
  version?: string;
  /** The OS keychain's state as the shell found it at start (platform/keychain.ts). */
  keychain?: () => KeychainInfo;
  /**
   * Where a key typed in Settings > Sources is kept: the OS keychain's upstream account
   * (upstreamKeyStoreOf), or null/absent where none answers: then it is kept for this session only.
   */
  upstreamKeyStore?: UpstreamKeyStore | null;
}

const KEYCHAIN_UNCHECKED: KeychainInfo = { available: false, message: 'The OS keychain was not opened in this process.' };

export interface AppHandlers {
  handlers: Handlers;
  events: EventHub;
  watcher: StoreWatcher;
  /** Resolves when running imports have ended (tests, shutdown). */
  idle(): Promise<void>;
  close(): void;
}

/**
 * The contract's handler map, implemented once over the engine. The transports (IPC in the desktop
 * shell, HTTP + SSE in headless mode) only carry calls to these functions.
 */
export function createHandlers(engine: Engine, deps: HandlerDeps): AppHandlers {
  const watcher = new StoreWatcher(engine, deps.events);
  const imports = new Set<Promise<unknown>>();
  watcher.start();
  const handlers: Handlers = {
    'app.info': async (): Promise<AppInfo> => ({
      version: deps.version ?? '0.1.0',
      mode: deps.mode,
      data_dir: engine.dataDir,
      db_file: engine.dbFile,
      db_bytes: fileBytes(engine.dbFile) + fileBytes(`${engine.dbFile}-wal`),
      api_url: deps.apiUrl(),
      capabilities: { corpus: true, reads: true, search: true, jobs: true, keys: true, credits: true, webhooks: true, import: true },
      keychain: deps.keychain?.() ?? KEYCHAIN_UNCHECKED,
      holds_demo_data: removableSeeds(engine.db).length > 0,
    }),
    'corpus.summary': async () => corpusSummary(engine),
    'corpus.removeDemo': () => removeDemoData(engine),
    'users.lookup': async (args) => lookupUser(engine, args),
    'timeline.page': async (args) => timelinePage(engine, args),
    'user.topPosts': async (args) => topPostsOf(engine, args),
    'post.get': async (args) => postDetail(engine, args),
    'post.replies': async (args) => replyTree(engine, args),
    'post.replyShape': async (args) => postReplyShape(engine, args),
    'post.context': async (args) => postContext(engine, args),
    'article.get': async (args) => articleDetail(engine, args),
    'space.get': async (args) => spaceDetail(engine, args),
    'search.page': async (args) => searchResults(engine, args),
    'search.count': async (args) => searchCount(engine, args),
    'overview.get': async (args) => overviewOf(engine, args),
    'jobs.estimate': async (args) => estimateJob(engine, args),
    'jobs.create': async (args) => createAppJob(engine, args),
    'jobs.list': async () => listJobs(engine, deps.apiUrl()),
    'jobs.get': async (args) => getAppJob(engine, args, deps.apiUrl()),
    'jobs.cancel': async (args) => cancelAppJob(engine, args, deps.apiUrl()),
    'jobs.retry': async (args) => retryAppJob(engine, args),
    'jobs.retryEstimate': async (args) => estimateRetry(engine, args),
    'jobs.delete': async (args) => deleteAppJob(engine, args),
    'exports.list': async () => listExports(engine, deps.apiUrl()),
    'exports.preview': (args) => previewExport(engine, args, deps.apiUrl()),
    'exports.partials': async () => listPartialFiles(engine),
    // Each begins with its one write (a transaction's BEGIN IMMEDIATE, or the saved setting): waited
    // for off the event loop while another process holds the lock (store/when-write-free.ts).
    'exports.removePartial': async (args) => whenWriteFree(engine.db, () => removePartialFile(engine, args)),
    'exports.delete': async (args) => whenWriteFree(engine.db, () => deleteExport(engine, args)),
    'exports.retention': async () => retentionState(engine),
    'exports.setRetention': async (args) => whenWriteFree(engine.db, () => setRetention(engine, args)),
    'users.list': async () => listUsers(engine),
    'users.setLimit': async (args) => setLimit(engine, args),
    'keys.list': async () => listApiKeys(engine),
    'keys.create': async (args) => createApiKey(engine, args),
    'keys.revoke': async (args) => revokeApiKey(engine, args),
    'credits.grant': async (args) => grantCredits(engine, args),
    'credits.ledger': async (args) => ledgerOf(engine, args),
    'webhooks.set': async (args) => setWebhook(engine, args),
    'webhooks.test': async (args) => testWebhook(engine, args),
    'webhooks.deliveries': async (args) => deliveries(engine, args),
    'inbox.get': async () => appInbox(engine, deps.apiUrl()),
    'data.import': async (args) => startImport(engine, deps.events, args, imports),
    'upstream.get': () => upstreamState(engine, deps),
    'upstream.set': (args) => setUpstream(engine, deps, args),
    'upstream.remove': () => removeUpstream(engine, deps),
    'upstream.test': () => testUpstream(engine, deps),
    'upstream.setKey': (args) => setUpstreamKey(engine, deps, args),
  };
  return {
    handlers,
    events: deps.events,
    watcher,
    close() {
      watcher.stop();
    },
    idle: () => Promise.all([...imports]).then(() => undefined),
  };
}

function fileBytes(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
