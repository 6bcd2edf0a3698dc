import { existsSync } from 'node:fs';
import { createEngine, dbFileOf } from '../engine/engine';
import { fullCheck, readCheckpoint, writeCheckpoint } from '../engine/ledger';
import { type Command, parseCommandArgs, printUsage, UsageError } from './command';

// `skein doctor`: the ledger's full check. A start checks only what came after the ledger
// checkpoint (milliseconds); this re-derives every account's balances and every hold from every
// transfer (0.55 s per million transfers), so it also sees an old transfer rewritten in place.
// Clean, it moves the checkpoint to the newest transfer it summed.

export const doctorCommand: Command = {
  name: 'doctor',
  summary: "Check the whole ledger: every balance and hold re-derived from every transfer.",
  usage: 'skein doctor [--data-dir DIR]',
  run(argv) {
    const { dataDir, help } = parseCommandArgs(argv, {});
    if (help) return Promise.resolve(printUsage(this));
    if (!existsSync(dbFileOf(dataDir))) throw new UsageError(`No Skein data in ${dataDir}: start the app or 'skein serve' once, or pass --data-dir.`);
    // Opened without the ledger's start: a broken ledger would stop it before it is reported.
    const engine = createEngine({ dataDir, startLedger: false, ledgerCheckpointEveryMs: 0 });
    try {
      const started = Date.now();
      const check = fullCheck(engine.db);
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      if (check.violations.length) {
        console.log(`The ledger is NOT sound (${check.violations.length}${check.violations.length === 50 ? ' or more' : ''} problems, checked up to transfer ${check.seq} in ${secs} s):`);
        for (const v of check.violations) console.log(`- ${v.rule}: ${v.detail}`);
        return Promise.resolve(1);
      }
      const moved = writeCheckpoint(engine.db, { fromSeq: null, seq: check.seq, sums: check.sums, nowMs: engine.clock.nowMs(), by: 'doctor' });
      const at = readCheckpoint(engine.db).seq;
      console.log(`The ledger is sound: ${check.seq} transfers and ${check.sums.size} accounts re-derived in ${secs} s.`);
      console.log(moved ? `Checkpoint moved to transfer ${at}.` : `Checkpoint left at transfer ${at} (already there or newer).`);
      return Promise.resolve(0);
    } finally {
      engine.close();
    }
  },
};
