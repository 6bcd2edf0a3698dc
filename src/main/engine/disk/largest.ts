import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface DataFile {
  /** Path relative to the data dir, with '/' between folders. */
  name: string;
  path: string;
  bytes: number;
  /** Under exports/.partial: the staged output of an unfinished or ended job. */
  partial: boolean;
}

/** A data dir holds a database, its WAL and one file per export: 100,000 entries is far past any. */
const MAX_ENTRIES = 100_000;

/**
 * The largest files under a data dir, the staged files under exports/.partial first (they are the
 * ones a full disk leaves behind, and the ones Skein can do without), then the others, largest
 * first in each group. Symbolic links are not followed.
 */
export function largestFiles(dataDir: string, count = 5): DataFile[] {
  const files: DataFile[] = [];
  const stack = [dataDir];
  let seen = 0;
  while (stack.length && seen < MAX_ENTRIES) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) break;
      const path = join(dir, e.name);
      if (e.isDirectory()) stack.push(path);
      else if (e.isFile()) {
        let bytes = 0;
        try {
          bytes = lstatSync(path).size;
        } catch {
          continue;
        }
        const name = relative(dataDir, path).split(sep).join('/');
        files.push({ name, path, bytes, partial: name.startsWith('exports/.partial/') });
      }
    }
  }
  files.sort((a, b) => Number(b.partial) - Number(a.partial) || b.bytes - a.bytes);
  return files.slice(0, count);
}
