// The schema as numbered migrations: SQL text in TypeScript modules, so the build, vitest, tsx and
// worker threads all load them the same way and the packaged app cannot lose a file.
// Numbering: 001-009 corpus, 010-019 API users and keys, 020-029 ledger and limits,
// 030-039 jobs, exports and webhooks. Each is applied once, in order, in its own transaction.
import m001 from './migrations/001_corpus';
import m010 from './migrations/010_api_users';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  { id: 1, name: '001_corpus', sql: m001 },
  { id: 10, name: '010_api_users', sql: m010 },
];
