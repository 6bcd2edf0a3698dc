import { existsSync } from 'node:fs';
import { createEngine, dbFileOf } from '../engine/engine';
import { listPartials } from '../engine/jobs/partials';
import { fullCheck, readCheckpoint, writeCheckpoint } from '../engine/ledger';
import { makeDataDirPrivate } from '../engine/store/private-dir';
import { type Command, parseCommandArgs, printUsage, UsageError } from './command';

// `skein doctor` (issue 13, point 16): what a start does not look at, each part said as found.
// - SQLite: PRAGMA quick_check over every page (a corrupted page answers 500s otherwise).
// - The ledger's full check: every balance and hold re-derived from every transfer (a start checks
//   only what came after the ledger checkpoint; 0.55 s per million transfers here), open holds
//   against running jobs included. Clean, the checkpoint moves to the newest transfer summed.
// - Unfinished files in exports/.partial that nothing will use again (removable in Exports).
// - Permissions: a data dir others could read is made private, and said.
// Exit code 1 when a problem remains, 0 otherwise.

/** quick_check lists at most this many problems: a broken file must not flood the terminal. */
const MAX_SQLITE_LINES = 20;

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check the data dir: SQLite pages, the whole ledger, unfinished files, permissions.',
  usage: 'skein doctor [--data-dir DIR]',
  run(argv) {
    const { dataDir, help } = parseCommandArgs(argv, {});
    if (help) return Promise.resolve(printUsage(this));
    if (!existsSync(dbFileOf(dataDir))) throw new UsageError(`No Skein data in ${dataDir}: start the app or 'skein serve' once, or pass --data-dir.`);
    let problems = 0;
    const tightened = makeDataDirPrivate(dataDir, { everyFile: true });
    console.log(
      tightened.length
        ? `Permissions: others could read ${tightened.length} ${tightened.length === 1 ? 'path' : 'paths'} of the data dir (e.g. ${tightened[0]}); made private (0700/0600).`
        : 'Permissions: the data dir is private to your account.',
    );
    // Opened without the ledger's start: a broken ledger would stop it before it is reported.
    const engine = createEngine({ dataDir, startLedger: false, ledgerCheckpointEveryMs: 0 });
    try {
      const pages = engine.db.prepare(`PRAGMA quick_check(${MAX_SQLITE_LINES})`).pluck().all() as string[];
      if (pages.length === 1 && pages[0] === 'ok') console.log('SQLite: every page of the database reads back (quick_check ok).');
      else {
        problems++;
        console.log(`SQLite: the database is damaged (quick_check, first ${pages.length} findings):`);
        for (const line of pages) console.log(`- ${line}`);
      }

      const started = Date.now();
      const check = fullCheck(engine.db);
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      if (check.violations.length) {
        problems++;
        console.log(`The ledger is NOT sound (${check.violations.length}${check.violations.length === 50 ? ' or more' : ''} problems, checked up to transfer ${check.seq} in ${secs} s):`);
        for (const v of check.violations) console.log(`- ${v.rule}: ${v.detail}`);
      } else {
        const moved = writeCheckpoint(engine.db, { fromSeq: null, seq: check.seq, sums: check.sums, nowMs: engine.clock.nowMs(), by: 'doctor' });
        const at = readCheckpoint(engine.db).seq;
        console.log(`The ledger is sound: ${check.seq} transfers and ${check.sums.size} accounts re-derived in ${secs} s.`);
        console.log(moved ? `Checkpoint moved to transfer ${at}.` : `Checkpoint left at transfer ${at} (already there or newer).`);
      }

      const leftovers = listPartials(engine.db, dataDir).filter((p) => p.state !== 'waiting');
      if (leftovers.length) {
        problems++;
        const bytes = leftovers.reduce((n, p) => n + p.bytes, 0);
        console.log(`Unfinished files: ${leftovers.length} in exports/.partial that no job will use (${bytes} bytes); remove them in the app's Exports:`);
        for (const p of leftovers) console.log(`- ${p.file_name} (${p.bytes} bytes, ${p.job_id === null ? 'no job' : `job ${p.job_id} ${p.job_status ?? 'gone'}`})`);
      } else console.log('Unfinished files: none left behind.');
      return Promise.resolve(problems ? 1 : 0);
    } finally {
      engine.close();
    }
  },
};
