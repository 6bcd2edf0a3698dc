import { existsSync, rmSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import type { ImportFileReport, ImportProgress } from '../../../shared/contract';
import type { FileCounts, ImportReport } from '../corpus/importers';
import { importPaths } from '../corpus/importers';
import type { Engine } from '../engine';
import { fail } from '../errors';
import type { EventHub } from './event-hub';
import { record } from './validate';

// A drop of many files is one import; more than this is a folder, which importPaths walks itself.
const MAX_PATHS = 100;
// Progress events at most every 250 ms: smooth enough for a bar, cheap for a 10 GB file.
const PROGRESS_EVERY_MS = 250;
const PROBLEMS_SHOWN = 5;
// Per file, the first 20 problems with their line: the report's words say what is wrong; past 20
// lines the analyst opens the file (the CLI's --json report lists the first 200 in all).
const FILE_PROBLEMS_SHOWN = 20;
/** The app's way to read a file that is not UTF-8 as Latin-1 (the CLI says --encoding latin1). */
export const APP_LATIN1_HINT = '; if the file is Latin-1, choose "Read them as Latin-1" in Settings > Data and import it again';
const ENCODINGS = ['utf8', 'latin1'] as const;
/**
 * Records per transaction of the app's import: it runs on the engine's connection, on the thread
 * that answers the app and the API, and a batch's write holds that thread (50,000 v1.1 records,
 * load ~3: 1,000 a batch held it 130-170 ms at a time at 9,300 records/s; 200 a batch 55-70 ms at
 * 7,100/s; 100 38-54 ms at 6,300/s). `skein import` keeps 1,000: nothing waits on its thread.
 */
const APP_IMPORT_BATCH = 250;

/**
 * Starts importing files already on this machine (dropped or picked; in headless mode uploaded
 * into the data dir first) and returns at once; progress and the final counts arrive as
 * 'import.progress' events. The import runs on the engine's connection in short batched
 * transactions, so the API and the app keep reading meanwhile.
 */
export function startImport(engine: Engine, events: EventHub, raw: unknown, running: Set<Promise<unknown>>): { import_id: string } {
  const args = record(raw);
  const paths = args.paths;
  if (!Array.isArray(paths) || paths.length === 0) throw fail.missing('paths');
  if (paths.length > MAX_PATHS) throw fail.invalid('paths', `at most ${MAX_PATHS} files at once (drop a folder instead).`);
  for (const p of paths) {
    if (typeof p !== 'string' || p.length > 4096 || p.includes('\0')) throw fail.invalid('paths', 'each path is text.');
    if (!existsSync(p)) throw fail.invalid('paths', `no such file or folder: ${p}`);
  }
  const encoding = args.encoding ?? 'utf8';
  if (!ENCODINGS.includes(encoding as never)) throw fail.invalid('encoding', `expected one of ${ENCODINGS.join(', ')}.`);
  const importId = engine.ids.randomHex(6);
  const base: ImportProgress = { import_id: importId, file: '', bytes_done: 0, bytes_total: 0, records: 0, added: 0, updated: 0, skipped: 0, done: false, error: null, problems: [], files: [] };
  let lastEmit = 0;
  const counts = new Map<string, FileCounts>();
  const work = importPaths(engine.db, paths as string[], {
    batchSize: APP_IMPORT_BATCH,
    encoding: encoding as (typeof ENCODINGS)[number],
    latin1Hint: APP_LATIN1_HINT,
    onFileDone: (file, c) => counts.set(file, c),
    onProgress: (p) => {
      const now = Date.now();
      if (now - lastEmit < PROGRESS_EVERY_MS) return;
      lastEmit = now;
      events.emit('import.progress', { ...base, file: shownName(p.file), bytes_done: p.bytesDone, bytes_total: p.bytesTotal, records: p.records });
    },
  }).then(
    (report) => {
      removeUploads(engine, paths as string[]);
      events.emit('import.progress', {
        ...base,
        file: paths.length === 1 ? shownName(paths[0] as string) : `${paths.length} files`,
        records: report.added + report.updated + report.skipped,
        added: report.added,
        updated: report.updated,
        skipped: report.skipped,
        done: true,
        problems: report.problems.slice(0, PROBLEMS_SHOWN).map((pr) => `${shownName(pr.file)}${pr.line ? `:${pr.line}` : ''}: ${pr.message}`),
        files: fileReports(report, counts),
      });
    },
    (err: unknown) => {
      events.emit('import.progress', { ...base, file: `${paths.length} file(s)`, done: true, error: (err as Error).message ?? String(err) });
    },
  );
  running.add(work);
  void work.finally(() => running.delete(work));
  return { import_id: importId };
}

/** A row per file: its own counts, every reason, and its first problems with their lines. */
function fileReports(report: ImportReport, counts: Map<string, FileCounts>): ImportFileReport[] {
  return report.files.map((f) => {
    const mine = report.problems.filter((p) => p.file === f.file);
    // A file stopped part-way (stopFile) has no counts of its own: its listed problems stand in.
    const c = counts.get(f.file) ?? { added: 0, updated: 0, skipped: mine.length, refused: mine.length, reasons: {} };
    const refused = c.refused;
    return {
      file: shownFile(f.file),
      format: f.format,
      imported: !f.format.startsWith('not imported'),
      records: f.records,
      added: c.added,
      updated: c.updated,
      skipped: c.skipped - refused,
      refused,
      reasons: Object.entries(c.reasons).sort((a, b) => b[1] - a[1]).map(([reason, count]) => ({ reason, count })),
      problems: mine.slice(0, FILE_PROBLEMS_SHOWN).map((p) => ({ line: p.line, message: p.message })),
      more_problems: Math.max(0, refused - Math.min(mine.length, FILE_PROBLEMS_SHOWN)),
    };
  });
}

/** An entry of a zip is shown as the zip's name, '!', and the entry's path. */
function shownFile(path: string): string {
  const bang = path.indexOf('!');
  return bang < 0 ? shownName(path) : `${shownName(path.slice(0, bang))}${path.slice(bang)}`;
}

/**
 * Files uploaded from a browser (headless mode) are copies in <data dir>/imports: once imported
 * they are removed, since the corpus now holds their records and the original stays where the
 * analyst had it. A failed import keeps its copy for a second try.
 */
function removeUploads(engine: Engine, paths: string[]): void {
  const uploads = resolve(join(engine.dataDir, 'imports')) + sep;
  for (const p of paths) {
    if (resolve(p).startsWith(uploads)) rmSync(p, { force: true });
  }
}

/** The file's name as the analyst knows it (an upload's copy carries an 8-hex prefix). */
function shownName(path: string): string {
  return basename(path).replace(/^[0-9a-f]{8}-/, '');
}
