import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importPaths } from '../../src/main/engine/corpus/importers';
import { createEngine } from '../../src/main/engine/engine';
import { type WalBoundOutcome, walBoundAfterCommit } from '../../src/main/engine/store/wal-bound';
import { tempDir } from '../helpers/temp';
import { tweetsFile } from '../helpers/tweets-file';

// `skein import` beside a busy app (store/wal-bound.ts): the app's readers hold a snapshot so often
// when the importer's next transaction starts that the WAL never starts over (~0.4-1 GB over a
// million records). The importer now empties it itself past the bound. A reader in another process
// stands in for the app.

const BOUND_BYTES = 1024 * 1024;

/** A process reading the newest post in a loop: `holdMs` inside each read transaction, 0.2 ms between. */
async function startReader(dbFile: string, holdMs: number): Promise<ChildProcess> {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const { performance } = require('node:perf_hooks');
    const db = new Database(${JSON.stringify(dbFile)});
    const newest = db.prepare('SELECT * FROM posts ORDER BY rowid DESC LIMIT 1');
    const spin = (ms) => { const until = performance.now() + ms; while (performance.now() < until); };
    process.stdout.write('reading\\n');
    for (;;) {
      db.exec('BEGIN');
      newest.get();
      spin(${holdMs});
      db.exec('COMMIT');
      spin(0.2);
    }`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the reader ended (${code})`)));
  });
  return child;
}

/** Imports 5,000 records in batches of 100 beside the reader: the WAL file's largest size after a batch, and the bound's outcomes. */
async function importBeside(options: { bound: boolean; holdMs: number }): Promise<{ largest: number; outcomes: WalBoundOutcome[] }> {
  const dir = tempDir();
  const engine = createEngine({ dataDir: dir });
  const reader = await startReader(engine.dbFile, options.holdMs);
  try {
    const keepBound = walBoundAfterCommit(engine.db, engine.dbFile, BOUND_BYTES);
    let largest = 0;
    const outcomes: WalBoundOutcome[] = [];
    const report = await importPaths(engine.db, [tweetsFile(dir, 5_000)], {
      batchSize: 100,
      afterBatch() {
        if (options.bound) outcomes.push(keepBound());
        largest = Math.max(largest, statSync(`${engine.dbFile}-wal`).size);
      },
    });
    expect(report.added).toBe(5_000);
    return { largest, outcomes };
  } finally {
    reader.kill();
    engine.close();
  }
}

describe('skein import keeps the WAL within its bound while another process reads', () => {
  it('beside one short read after another: the WAL grows without the bound, and is emptied past it with the bound', async () => {
    expect((await importBeside({ bound: false, holdMs: 0 })).largest).toBeGreaterThan(4 * BOUND_BYTES);
    const bounded = await importBeside({ bound: true, holdMs: 0 });
    expect(bounded.outcomes).toContain('emptied');
    expect(bounded.largest).toBeLessThanOrEqual(BOUND_BYTES);
  });

  it('beside a reader never out of a read transaction: gives up, and tries again only a bound later', async () => {
    const { largest, outcomes } = await importBeside({ bound: true, holdMs: 5 });
    // Not once per batch past the bound (50 batches): at most once per bound's worth of growth. A
    // TRUNCATE that finds a gap between the reader's transactions empties the WAL, which then grows
    // again from nothing, so the busy tries are counted per growth (under load two growths gave 8
    // busy tries in all against a largest WAL of 6 bounds, each growth within its own).
    let busyInGrowth = 0;
    let mostInGrowth = 0;
    for (const o of outcomes) {
      if (o === 'emptied') busyInGrowth = 0;
      else if (o === 'busy') mostInGrowth = Math.max(mostInGrowth, ++busyInGrowth);
    }
    expect(mostInGrowth).toBeLessThanOrEqual(Math.ceil(largest / BOUND_BYTES) + 1);
    expect(outcomes.filter((o) => o !== 'within').length).toBeLessThan(outcomes.length / 2);
  });
});
