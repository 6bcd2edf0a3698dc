// The schema as numbered migrations: SQL text in TypeScript modules, so the build, vitest, tsx and
// worker threads all load them the same way and the packaged app cannot lose a file.
// Numbering: 001-009 corpus, 010-019 API users and keys, 020-029 ledger and limits,
// 030-039 jobs, exports and webhooks, 040-049 search indexes. Each is applied once, in order,
// in its own transaction.
import m001 from './migrations/001_corpus';
import m010 from './migrations/010_api_users';
import m011 from './migrations/011_secrets';
import m020 from './migrations/020_ledger';
import m030 from './migrations/030_jobs';
import m031 from './migrations/031_webhooks';
import m040 from './migrations/040_search';
import m041 from './migrations/041_search_ranges';
import m050 from './migrations/050_opening_credits';
import m051 from './migrations/051_incomplete_users';
import m052 from './migrations/052_protected_authors';
import m053 from './migrations/053_upstream';
import m054 from './migrations/054_upstream_cache';
import m055 from './migrations/055_upstream_pause';
import m056 from './migrations/056_job_disk_full';
import m057 from './migrations/057_ledger_checkpoint';
import m058 from './migrations/058_attempt_progress';
import m059 from './migrations/059_upstream_account';
import m060 from './migrations/060_export_retention';
import m061 from './migrations/061_upstream_spend_booked';
import m062 from './migrations/062_output_formats';
import m063 from './migrations/063_webhook_secret_keychain';
import m064 from './migrations/064_timeline_jobs';
import m065 from './migrations/065_job_deleted';
import m066 from './migrations/066_job_posts';
import m067 from './migrations/067_search_filters';
import m068 from './migrations/068_metering_floats';

export interface Migration {
  id: number;
  name: string;
  sql: string;
  /**
   * Rebuilds a table others reference (SQLite's way to change a CHECK): run with foreign keys off,
   * as SQLite's procedure says, and refused unless foreign_key_check finds nothing before commit.
   */
  foreignKeysOff?: true;
}

export const migrations: readonly Migration[] = [
  { id: 1, name: '001_corpus', sql: m001 },
  { id: 10, name: '010_api_users', sql: m010 },
  { id: 11, name: '011_secrets', sql: m011 },
  { id: 20, name: '020_ledger', sql: m020 },
  { id: 30, name: '030_jobs', sql: m030 },
  { id: 31, name: '031_webhooks', sql: m031 },
  { id: 40, name: '040_search', sql: m040 },
  { id: 41, name: '041_search_ranges', sql: m041 },
  { id: 50, name: '050_opening_credits', sql: m050 },
  { id: 51, name: '051_incomplete_users', sql: m051 },
  { id: 52, name: '052_protected_authors', sql: m052 },
  { id: 53, name: '053_upstream', sql: m053 },
  { id: 54, name: '054_upstream_cache', sql: m054 },
  { id: 55, name: '055_upstream_pause', sql: m055 },
  { id: 56, name: '056_job_disk_full', sql: m056 },
  { id: 57, name: '057_ledger_checkpoint', sql: m057 },
  { id: 58, name: '058_attempt_progress', sql: m058 },
  { id: 59, name: '059_upstream_account', sql: m059, foreignKeysOff: true },
  { id: 60, name: '060_export_retention', sql: m060 },
  { id: 61, name: '061_upstream_spend_booked', sql: m061 },
  { id: 62, name: '062_output_formats', sql: m062, foreignKeysOff: true },
  { id: 63, name: '063_webhook_secret_keychain', sql: m063 },
  { id: 64, name: '064_timeline_jobs', sql: m064, foreignKeysOff: true },
  { id: 65, name: '065_job_deleted', sql: m065 },
  { id: 66, name: '066_job_posts', sql: m066 },
  { id: 67, name: '067_search_filters', sql: m067 },
  { id: 68, name: '068_metering_floats', sql: m068 },
];
