import { createEngine } from '../engine/engine';
import { walBoundAfterCommit } from '../engine/store/wal-bound';
import { formatReport, importPaths } from '../engine/corpus/importers';
import { removableSeeds } from '../engine/corpus/seed';
import type { FallbackEncoding } from '../engine/corpus/importers/decode';
import { lowerPriority } from './background-priority';
import { type Command, parseCommandArgs, UsageError } from './command';

// `skein import FILE|DIR...`: format detected from content; progress on stderr; the final counts
// on stdout (or the whole report as JSON with --json). Exit code 0 when every record was imported
// or was already there, 3 when the import finished but some records or files were refused (their
// file and line are listed), 1 on an error that stopped it.

export const EXIT_WITH_PROBLEMS = 3;

const ENCODING_HELP = [
  'Text is read as UTF-8; a file starting with a byte-order mark is read as UTF-8 or UTF-16 (LE/BE) as the mark says.',
  'A file that is not valid UTF-8 is refused, naming the byte offset of its first bad byte (0 = the first byte),',
  'and the import goes on with the next files.',
  '  --encoding latin1  read such files as Latin-1 (Windows-1252) instead. It applies to every file of the run,',
  '                     but only files that are not valid UTF-8 and have no byte-order mark are read as Latin-1:',
  '                     the others are read as before, so a folder mixing both imports correctly.',
].join('\n');

const PRIORITY_HELP = [
  'The import runs at a lower CPU priority than the app (nice 10; below normal on Windows), so the app and its API',
  'answer as fast as usual while it runs; alone on the machine it is as fast as at normal priority.',
  '  --priority normal  run it at the priority it was started with instead.',
].join('\n');

/** --priority: low (the default) or normal. */
function priorityOption(value: unknown): 'low' | 'normal' {
  if (value === undefined) return 'low';
  const v = String(value).toLowerCase();
  if (v === 'low' || v === 'normal') return v;
  throw new UsageError(`--priority takes normal (or low, the default), not '${String(value)}'.`);
}

/** --encoding: utf8 (the default) or latin1; anything else is a usage mistake. */
function encodingOption(value: unknown): FallbackEncoding | undefined {
  if (value === undefined) return undefined;
  const v = String(value).toLowerCase().replace(/[-_]/g, '');
  if (v === 'utf8') return 'utf8';
  if (v === 'latin1' || v === 'iso88591' || v === 'windows1252' || v === 'cp1252') return 'latin1';
  throw new UsageError(`--encoding takes latin1 (or utf8, the default), not '${String(value)}'.`);
}

export const importCommand: Command = {
  name: 'import',
  summary: 'Import posts, articles and spaces: service JSON, Twitter v1.1 / v2 (twarc2) files, X archives (folder or zip).',
  usage: 'skein import FILE|DIR... [--encoding latin1] [--priority normal] [--json] [--data-dir DIR]',
  async run(argv) {
    const { values, positionals, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' }, encoding: { type: 'string' }, priority: { type: 'string' } }, true);
    if (help) {
      console.log(`${this.summary}\n\nUsage: ${this.usage}\n\n${ENCODING_HELP}\n\n${PRIORITY_HELP}\n\nImporting the same file twice adds nothing. Exit code 0: all imported; ${EXIT_WITH_PROBLEMS}: finished, some records or files refused (listed); 1: stopped by an error.`);
      return 0;
    }
    const encoding = encodingOption(values.encoding);
    const priority = priorityOption(values.priority);
    if (positionals.length === 0) throw new UsageError('name at least one file or folder to import.');
    if (priority === 'low') lowerPriority();
    const engine = createEngine({ dataDir });
    try {
      let lastFile = '';
      let lastPercent = -1;
      const report = await importPaths(engine.db, positionals, {
        encoding,
        // Beside a running app its checkpointer cannot empty the WAL between this process's batches.
        afterBatch: walBoundAfterCommit(engine.db, engine.dbFile),
        onProgress(p) {
          const percent = p.bytesTotal > 0 ? Math.floor((100 * p.bytesDone) / p.bytesTotal) : 100;
          if (p.file === lastFile && percent === lastPercent) return;
          lastFile = p.file;
          lastPercent = percent;
          process.stderr.write(`import: ${p.file}: ${percent}% (${p.records} records so far)\n`);
        },
      });
      if (values.json === true) console.log(JSON.stringify(report, null, 2));
      else {
        for (const f of report.files) console.log(`${f.file}: ${f.format}${f.records ? `, ${f.records} records` : ''}`);
        console.log(formatReport(report));
      }
      // Real records now sit beside fictional ones in every search and export: say how to part them.
      if (report.added > 0 && removableSeeds(engine.db).length > 0) {
        process.stderr.write("The corpus also holds the demo data (fictional users and posts) beside what you imported: 'skein seed --remove' takes it out.\n");
      }
      const refusedFiles = report.files.some((f) => f.format.startsWith('not imported'));
      return report.problemCount > 0 || refusedFiles ? EXIT_WITH_PROBLEMS : 0;
    } finally {
      engine.close();
    }
  },
};
