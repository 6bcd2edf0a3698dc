// A server process that dies with charges in its metering journal (metering-floats.test.ts): it
// opens the engine on the data dir in argv[2], has charges answered from a float while another
// connection holds the write lock, prints what it answered, and kills itself with SIGKILL, so
// nothing is settled on the way out.
import { createEngine } from '../../src/main/engine/engine';
import { Metering } from '../../src/main/engine/metering';
import { openDb } from '../../src/main/engine/store/db';
import { createKey } from '../../src/main/engine/keys';
import { FLOAT_AFTER_WAIT_MS } from '../../src/main/engine/metering/group-commit';

const dataDir = process.argv[2]!;
const engine = createEngine({ dataDir });
const user = createKey(engine, 'dies', { credits: 5_000 }).user.id;
const metering = new Metering(engine.db, engine.clock, engine.ids, dataDir);
const other = openDb(engine.dbFile);

async function main(): Promise<void> {
  const tick = () => new Promise((r) => setTimeout(r, FLOAT_AFTER_WAIT_MS + 15));
  // The first wait, as long as a batch writer's, opens the float once the lock is free.
  other.prepare('BEGIN IMMEDIATE').run();
  const first = metering.chargeGrouped(metering.admit(user, 1), 1, 'GET /first');
  await tick();
  other.prepare('COMMIT').run();
  await first;
  // Answered from the float while the lock is held.
  other.prepare('BEGIN IMMEDIATE').run();
  await metering.chargeGrouped(metering.admit(user, 2), 2, 'GET /journaled-a');
  await metering.chargeGrouped(metering.admit(user, 3), 3, 'GET /journaled-b');
  console.log(JSON.stringify({ user }));
  process.kill(process.pid, 'SIGKILL');
}

void main();
