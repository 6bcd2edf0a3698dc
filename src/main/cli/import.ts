import { createEngine } from '../engine/engine';
import { formatReport, importPaths } from '../engine/corpus/importers';
import { type Command, parseCommandArgs, UsageError } from './command';

// `skein import FILE|DIR...`: format detected from content; progress on stderr; the final counts
// on stdout (or the whole report as JSON with --json). Exit code 0 when every record was imported
// or was already there, 3 when the import finished but some records or files were refused (their
// file and line are listed), 1 on an error that stopped it.

export const EXIT_WITH_PROBLEMS = 3;

export const importCommand: Command = {
  name: 'import',
  summary: 'Import posts, articles and spaces: service JSON, Twitter v1.1 / v2 (twarc2) files, X archives (folder or zip).',
  usage: 'skein import FILE|DIR... [--json] [--data-dir DIR]',
  async run(argv) {
    const { values, positionals, dataDir, help } = parseCommandArgs(argv, { json: { type: 'boolean' } }, true);
    if (help) {
      console.log(`${this.summary}\n\nUsage: ${this.usage}\n\nImporting the same file twice adds nothing. Exit code 0: all imported; ${EXIT_WITH_PROBLEMS}: finished, some records or files refused (listed); 1: stopped by an error.`);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError('name at least one file or folder to import.');
    const engine = createEngine({ dataDir });
    try {
      let lastFile = '';
      let lastPercent = -1;
      const report = await importPaths(engine.db, positionals, {
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
      const refusedFiles = report.files.some((f) => f.format.startsWith('not imported'));
      return report.problemCount > 0 || refusedFiles ? EXIT_WITH_PROBLEMS : 0;
    } finally {
      engine.close();
    }
  },
};
