import { createKey } from '../../src/main/engine/keys';
import { fund, writeApiCorpus } from '../fixtures/api-corpus';
import { testEngine } from './engine';
import { startServer } from './http';

/** A second real Skein on loopback to serve as an upstream: the API corpus and one funded key. */
export async function upstreamSkein() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const server = await startServer(engine);
  const { key, user } = createKey(engine, 'downstream');
  fund(engine, user.id);
  return { engine, server, key, userId: user.id };
}
