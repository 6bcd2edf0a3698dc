import { Agent, get } from 'node:http';
import type { ClientReply, ClientRequest } from './latency';

// The latency benches' client, in its own process as an analyst's script is (bench/latency.ts says
// why): one keep-alive connection per server, as a script's HTTP session keeps, and one request at
// a time, metered and unmetered in turn.

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let sent = 0;

function once(port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    get({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.once('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${path} answered ${res.statusCode}`))));
    }).once('error', reject);
  });
}

process.on('message', (m: ClientRequest) => {
  void (async () => {
    const reply: ClientReply = { id: m.id, metered: [], unmetered: [] };
    try {
      for (const path of m.paths) {
        const key = m.keys[sent++ % m.keys.length]!;
        reply.metered.push(await once(m.ports.metered, path, key));
        reply.unmetered.push(await once(m.ports.unmetered, path, key));
      }
    } catch (err) {
      reply.error = (err as Error).message;
    }
    process.send!(reply);
  })();
});
process.on('disconnect', () => process.exit(0));
