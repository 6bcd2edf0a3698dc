import { chmodSync, constants, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { journalDir } from '../metering/float-journal';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-dir';
import { databaseInUse } from './in-use';

// The metering journals (metering/float-journal.ts) hold charges the API answered from its floats
// and had not yet posted to skein.db when its process ended; the next start posts them onto the
// floats of the database beside them. They belong to that database, so a restore moves them with
// it: posted onto a restored database, they would charge requests that database never answered
// (or draw on a float of the same id a backup of the same server still had open).

const journalsIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.db')) : []);

/**
 * Moves the data dir's metering/ folder into the folder the replaced database went to. Returns how
 * many journals it held and the move (to undo it), or null when there was nothing to move.
 */
export function moveJournalsAside(dataDir: string, asideDir: string): { journals: number; move: [string, string] } | null {
  const dir = journalDir(dataDir);
  const journals = journalsIn(dir).length;
  if (journals === 0) return null;
  mkdirSync(asideDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const to = join(asideDir, 'metering');
  renameSync(dir, to);
  return { journals, move: [to, dir] };
}

/**
 * A database named skein.db with a metering/ folder beside it (a data dir, or a before-restore
 * folder) brings its journals along, so restoring a kept-aside database loses none of its charges.
 * Not while another process has that database open: its journals are live and posted there.
 * Returns how many journals were copied.
 */
export function bringJournals(fromFile: string, dataDir: string): number {
  if (basename(fromFile) !== 'skein.db') return 0;
  const from = join(dirname(fromFile), 'metering');
  const names = journalsIn(from);
  if (names.length === 0 || databaseInUse(fromFile)) return 0;
  const to = journalDir(dataDir);
  mkdirSync(to, { recursive: true, mode: PRIVATE_DIR_MODE });
  let copied = 0;
  for (const name of names) {
    if (existsSync(join(to, name))) continue;
    for (const suffix of ['', '-wal']) {
      if (!existsSync(join(from, name + suffix))) continue;
      copyFileSync(join(from, name + suffix), join(to, name + suffix), constants.COPYFILE_EXCL);
      chmodSync(join(to, name + suffix), PRIVATE_FILE_MODE);
    }
    copied++;
  }
  return copied;
}
