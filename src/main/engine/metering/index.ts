import type { Engine } from '../engine';
import { Metering } from './metering';

export { Metering, type Admission, type AccountView } from './metering';
export { priceOf, DEFAULT_MAX_COST } from './prices';

// One Metering per engine, shared by the HTTP plugin and the account route, so all keys of a user
// draw on one limit and the account shows that limit's window. Kept beside the engine (not in it)
// so the engine's composition root stays one line per capability.
const perEngine = new WeakMap<Engine, Metering>();

export function meteringOf(engine: Engine): Metering {
  let m = perEngine.get(engine);
  if (!m) {
    m = new Metering(engine.db, engine.clock, engine.ids, engine.dataDir);
    perEngine.set(engine, m);
  }
  return m;
}
