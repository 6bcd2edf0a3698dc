import { afterEach } from 'vitest';
import { ManualClock } from '../../src/main/engine/clock';
import { createEngine, type Engine, type EngineOptions } from '../../src/main/engine/engine';
import { SeededIds } from '../../src/main/engine/ids';
import { tempDir } from './temp';

const open: Engine[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

/** A real engine on a real SQLite file in a temp data dir, with a manual clock and seeded ids. */
export function testEngine(options: Partial<EngineOptions> = {}): Engine & { clock: ManualClock } {
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock(Date.UTC(2026, 10, 1));
  const engine = createEngine({ dataDir: tempDir(), ids: new SeededIds('test'), ...options, clock });
  open.push(engine);
  return engine as Engine & { clock: ManualClock };
}
