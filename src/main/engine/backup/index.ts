// Backup and restore of a data dir (`skein backup`, `skein restore`; issue 13, point 17).
export { backupDataDir, exportsCopyDirOf, type BackupOptions, type BackupReport } from './backup';
export { restoreDataDir, type RestoreOptions, type RestoreReport } from './restore';
export { databaseInUse } from './in-use';
export { BackupError } from './errors';
export type { SnapshotProgress } from './snapshot';
