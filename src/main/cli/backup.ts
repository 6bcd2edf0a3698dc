import { existsSync } from 'node:fs';
import { backupDataDir, type SnapshotProgress } from '../engine/backup';
import { dbFileOf } from '../engine/engine';
import { backupLines, sizeOf } from './backup-format';
import { type Command, parseCommandArgs, UsageError } from './command';

// `skein backup --to FILE` (issue 13, point 17): a consistent copy of the database while the app
// or `skein serve` runs on it; engine/backup/ says how. Exit 0 with the report, 1 with one line.

/** Progress on stderr only for a database this large (64 MB): a small one is copied in a moment. */
const PROGRESS_FROM_BYTES = 64 * 1024 * 1024;

function progressOnStderr(): SnapshotProgress {
  let shown = -1;
  return (copied, total, pageSize) => {
    if (total * pageSize < PROGRESS_FROM_BYTES) return;
    const percent = Math.floor((100 * copied) / total);
    if (percent === shown) return;
    shown = percent;
    process.stderr.write(`backup: ${percent}% (${copied} of ${total} pages, ${sizeOf(total * pageSize)})\n`);
  };
}

export const backupCommand: Command = {
  name: 'backup',
  summary: 'Copy the database to a file while Skein runs (exports are referred to, copied with --with-exports).',
  usage: 'skein backup --to FILE [--with-exports] [--force] [--json] [--data-dir DIR]',
  async run(argv) {
    const { values, dataDir, help } = parseCommandArgs(argv, {
      to: { type: 'string' },
      'with-exports': { type: 'boolean' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (help) {
      console.log(
        [
          `${this.summary}\n\nUsage: ${this.usage}\n`,
          'FILE is one SQLite file, checked page by page before it gets its name. Export files stay in the data',
          "dir's exports folder and are only referred to; --with-exports copies them into FILE.exports/ beside it.",
          '--force replaces an existing FILE (and FILE.exports/). Put it back with: skein restore FILE',
        ].join('\n'),
      );
      return 0;
    }
    const to = values.to;
    if (typeof to !== 'string' || to === '') throw new UsageError('--to FILE is required.');
    if (!existsSync(dbFileOf(dataDir))) throw new UsageError(`No Skein data in ${dataDir}: start the app or 'skein serve' once, or pass --data-dir.`);
    const report = await backupDataDir({
      dataDir,
      toFile: to,
      force: values.force === true,
      withExports: values['with-exports'] === true,
      onProgress: progressOnStderr(),
    });
    if (values.json === true) console.log(JSON.stringify(report, null, 2));
    else for (const line of backupLines(report, dataDir)) console.log(line);
    return 0;
  },
};
