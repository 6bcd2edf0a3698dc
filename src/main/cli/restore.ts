import { restoreDataDir } from '../engine/backup';
import { restoreLines } from './backup-format';
import { type Command, parseCommandArgs, UsageError } from './command';

// `skein restore FILE` (issue 13, point 17): puts a backup in place of the data dir's database,
// keeping the replaced one aside; engine/backup/restore.ts says how. Refused while anything has
// the database open. Exit 0 with the report, 1 with one line and nothing changed.

export const restoreCommand: Command = {
  name: 'restore',
  summary: "Replace the data dir's database with a backup (the current one is kept aside); Skein must be stopped.",
  usage: 'skein restore FILE [--force] [--json] [--data-dir DIR]',
  run(argv) {
    const { values, positionals, dataDir, help } = parseCommandArgs(argv, { force: { type: 'boolean' }, json: { type: 'boolean' } }, true);
    if (help) {
      console.log(
        [
          `${this.summary}\n\nUsage: ${this.usage}\n`,
          'FILE is a file `skein backup` wrote (or a copy of a skein.db). It is checked (SQLite pages, a Skein',
          'database this version can open) and brought up to date before anything in the data dir changes.',
          'A data dir with a database needs --force; that database goes to before-restore-<time>/ in the data',
          'dir, with the export files only it refers to. Copies in FILE.exports/ (skein backup --with-exports)',
          'are put into the exports folder; a file already there is never overwritten.',
        ].join('\n'),
      );
      return Promise.resolve(0);
    }
    if (positionals.length !== 1) throw new UsageError(positionals.length ? 'name one backup file.' : 'name the backup file to restore.');
    const report = restoreDataDir({ dataDir, fromFile: positionals[0]!, force: values.force === true });
    if (values.json === true) console.log(JSON.stringify(report, null, 2));
    else for (const line of restoreLines(report)) console.log(line);
    return Promise.resolve(0);
  },
};
