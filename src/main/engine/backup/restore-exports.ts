import { chmodSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { exportsDir, partialDir } from '../jobs/files';
import { PRIVATE_DIR_MODE } from '../store/private-dir';
import type { ExportRef } from './contents';
import { copyPrivate, isFile } from './exports-copy';
import { sameContent } from './same-content';

// After a restore, exports/ must hold, under each name the restored database refers to, that job's
// file or nothing, and no file of the replaced database may be lost. A data file's name carries
// only its job's id (search-job5.csv), and ids repeat across databases: the replaced database's
// job 5 is another job than the backup's job 5, and the restored database's next job 5 would
// overwrite its file (finalize renames over it). A job is known by its capability token.
// For each file the restored database refers to, the one in exports/:
// - stays when the replaced database refers to it with the same token (the same job: a restore
//   in the data dir the backup was taken from), or when it equals the backup's copy;
// - stays, unverified, when there is nothing to compare it with (no replaced database, no copy);
// - else is moved aside (it is another job's), and the backup's copy, if any, is copied in.
// Files only the replaced database refers to are moved aside too. exports/.partial (staged rows of
// jobs that were running) is moved aside: a restored job resumes from its checkpoint only with its
// own staged file, and without one it collects again from row 0, paying nothing twice
// (jobs/queue/restart.ts). Nothing is deleted and nothing is overwritten.

export interface ExportsPlacement {
  /** Data files the restored database refers to. */
  referenced: number;
  /** Already in exports/ and kept (the same job's, or equal to the backup's copy). */
  in_place: number;
  /** Kept in exports/ though nothing could confirm they are this backup's (no copy, no replaced database). */
  unverified: number;
  /** Copied in from FILE.exports/. */
  copied: number;
  /** Moved out of exports/ into the kept-aside folder: another database's files. */
  moved_aside: number;
  /** Files of exports/.partial (staged rows of jobs that were running) moved aside with the folder. */
  partial_moved: number;
  /** The same job's file is in exports/ but differs from the backup's copy: kept, the copy not used. */
  kept_different: string[];
  /** Neither in exports/ nor among the copies. */
  missing: string[];
}

export interface PlaceInput {
  dataDir: string;
  restored: readonly ExportRef[];
  /** The replaced database's references; null when there was none (or it could not be read). */
  replaced: readonly ExportRef[] | null;
  /** FILE.exports/ when it exists. */
  copiesDir: string | null;
  /** Where moved data files go, and where exports/.partial goes (created when needed). */
  asideDir: string;
  partialAside: string;
}

export function placeExports(input: PlaceInput): ExportsPlacement {
  const here = exportsDir(input.dataDir);
  const out: ExportsPlacement = { referenced: input.restored.length, in_place: 0, unverified: 0, copied: 0, moved_aside: 0, partial_moved: 0, kept_different: [], missing: [] };
  const replacedToken = new Map((input.replaced ?? []).map((r) => [r.file_name, r.token]));
  const kept = new Set<string>();
  const moveAside = (name: string): void => {
    mkdirSync(input.asideDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    renameSync(join(here, name), join(input.asideDir, name));
    out.moved_aside++;
  };
  for (const ref of input.restored) {
    const path = join(here, ref.file_name);
    const copy = input.copiesDir ? join(input.copiesDir, ref.file_name) : null;
    const hasCopy = copy !== null && isFile(copy);
    if (isFile(path)) {
      const sameJob = ref.token !== null && input.replaced !== null && replacedToken.get(ref.file_name) === ref.token;
      if (sameJob) {
        kept.add(ref.file_name);
        if (hasCopy && !sameContent(path, copy)) out.kept_different.push(ref.file_name);
        else out.in_place++;
        continue;
      }
      if (hasCopy && sameContent(path, copy)) {
        kept.add(ref.file_name);
        out.in_place++;
        continue;
      }
      if (input.replaced === null && !hasCopy) {
        kept.add(ref.file_name);
        out.unverified++;
        continue;
      }
      moveAside(ref.file_name);
    }
    if (hasCopy) {
      mkdirSync(here, { recursive: true, mode: PRIVATE_DIR_MODE });
      copyPrivate(copy, path);
      kept.add(ref.file_name);
      out.copied++;
    } else out.missing.push(ref.file_name);
  }
  for (const name of replacedToken.keys()) if (!kept.has(name) && isFile(join(here, name))) moveAside(name);
  const partial = partialDir(input.dataDir);
  const staged = readdirSafe(partial)?.length ?? 0;
  if (staged > 0) {
    mkdirSync(dirname(input.partialAside), { recursive: true, mode: PRIVATE_DIR_MODE });
    renameSync(partial, input.partialAside);
    chmodSync(input.partialAside, PRIVATE_DIR_MODE);
    out.partial_moved = staged;
  }
  return out;
}

function readdirSafe(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch {
    return null;
  }
}
