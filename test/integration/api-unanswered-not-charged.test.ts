import { describe, expect, it } from 'vitest';
import { createKey } from '../../src/main/engine/keys';
import { balanceOf, checkInvariants } from '../../src/main/engine/ledger';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { exchange } from '../helpers/raw-http';
import { DETAIL_ID, fund, writeApiCorpus } from '../fixtures/api-corpus';

// Issue 13, found by the HTTP fuzz run (test/sim/http-fuzz.sim.test.ts, seed 12): a request whose
// route already ran when Node's parser refused what followed it on the connection (a GET is
// routed before its body arrives; a body longer than its Content-Length is read as a next
// request). The refusal answers "400 Malformed HTTP request" and closes the connection, and the
// route's answer is never sent; yet its price was charged, and a job it created stood. Now an
// answer and its charge go together: a 400 costs nothing and creates nothing, a 200 costs its price.

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  const { key, user } = createKey(engine, 'script');
  fund(engine, user.id);
  const server = await startServer(engine);
  const spent = () => balanceOf(engine.db, user.id).debitsPosted;
  const jobs = () => (engine.db.prepare('SELECT count(*) AS n FROM jobs').get() as { n: number }).n;
  return { engine, server, key, userId: user.id, port: Number(new URL(server.url).port), spent, jobs };
}

const head = (method: string, path: string, key: string, extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${extra}`;

describe('a request whose answer is refused on the wire is not charged', () => {
  it('a detail read followed by bytes that are not HTTP, or cut inside its body: answered and charged, or refused and free', async () => {
    const { engine, port, key, spent, server } = await setup();
    const cases: [string, string, boolean][] = [
      ['garbage after the request', `${head('GET', `/social/tweets/${DETAIL_ID}`, key)}\r\nGARBAGE\u0000\r\n\r\n`, false],
      ['a body longer than its Content-Length', `${head('GET', `/social/tweets/${DETAIL_ID}`, key, 'Content-Length: 2\r\n')}\r\nab\u0000cd\r\n\r\n`, false],
      ['the stream ends inside the body', `${head('GET', `/social/tweets/${DETAIL_ID}`, key, 'Content-Length: 5\r\nConnection: close\r\n')}\r\n{"`, true],
    ];
    for (const [what, bytes, end] of cases) {
      const before = spent();
      const res = await exchange(port, Buffer.from(bytes), { end, timeoutMs: 10_000 });
      if (res === null || res === 'timeout') throw new Error(`${what}: no answer (${res})`);
      const charged = spent() - before;
      if (res.status === 200) expect(charged, what).toBe(1);
      else {
        expect(res.status, what).toBe(400);
        expect(JSON.parse(res.body), what).toEqual({ status: 'error', message: 'Malformed HTTP request.' });
        expect(charged, `${what}: refused, yet charged`).toBe(0);
      }
    }
    // The same read, well formed, is charged its price: the check above sees charges.
    const before = spent();
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key })).status).toBe(200);
    expect(spent() - before).toBe(1);
    expect(checkInvariants(engine.db)).toEqual([]);
  });

  it('a job request followed by bytes that are not HTTP: no job, no charge, no hold', async () => {
    const { engine, port, key, userId, spent, jobs, server } = await setup();
    const body = '{"query":"Post","max_count":3}';
    const bytes = `${head('POST', '/social/search/asyncJob', key, `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`)}\r\n${body}GARBAGE\u0000\r\n\r\n`;
    const res = await exchange(port, Buffer.from(bytes), { timeoutMs: 10_000 });
    if (res === null || res === 'timeout') throw new Error(`no answer (${res})`);
    // The job's handler runs after the refusal (its body is parsed a tick later): a client told
    // "Malformed" would send the request again, and pay for a second job.
    if (res.status === 200) {
      expect(jobs()).toBe(1);
      expect(spent()).toBe(1);
    } else {
      expect(res.status).toBe(400);
      expect(jobs(), 'a job was created for a refused request').toBe(0);
      expect(spent()).toBe(0);
      expect(balanceOf(engine.db, userId).pending).toBe(0);
    }
    expect(checkInvariants(engine.db)).toEqual([]);
    // And the same request, well formed, creates its job.
    const ok = await server.request('/social/search/asyncJob', { key, method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
  });
});
