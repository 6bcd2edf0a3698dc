import { readdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SeededIds } from '../../src/main/engine/ids';
import { getJob, startJobRunner } from '../../src/main/engine/jobs';
import { partialDir } from '../../src/main/engine/jobs/files';
import { createKey, revokeKey } from '../../src/main/engine/keys';
import { balanceOf, checkInvariants, holdsOfJob } from '../../src/main/engine/ledger';
import { parseJsonExact } from '../../src/main/engine/serialize/json';
import { createInbox } from '../../src/main/engine/webhooks';
import { buildHttpApp } from '../../src/main/http/app';
import { testEngine } from '../helpers/engine';
import { fuzzRequest, type FuzzContext, type FuzzRequest } from '../helpers/http-fuzz-requests';
import { expectEachRowChargedOnce } from '../helpers/job-charges';
import { prng } from '../helpers/prng';
import { seedsFrom } from '../helpers/sim-seeds';
import { exchange, type RawResponse } from '../helpers/raw-http';
import { AUTHOR_ID, DETAIL_ID, fund, writeApiCorpus } from '../fixtures/api-corpus';
import { finishedExport } from '../fixtures/finished-exports';
import { writeConversation } from '../fixtures/jobs-corpus';

// Seeded HTTP fuzzing of the whole local API (issue 13's probe, bounded for CI): raw requests over
// loopback to the real Fastify app, every spec route, the /twitter paths, jobs, webhooks, inboxes
// and data files (test/helpers/http-fuzz-requests.ts draws them: garbage path and query values, job
// bodies, headers, methods, request forms; the app page's /app routes, with their own error shape,
// are not served here), and after every answer:
// - never a 5xx (but the 505 for an HTTP version other than 1.0 and 1.1), never a dropped connection or a hang;
// - every refusal is the spec's body, exactly {"status":"error","message":"<non-empty>"}, as JSON;
// - no Access-Control-* header, and nothing served to a foreign Host or a cross-site request;
// - the credits charged are the price of what was answered (docs/decisions.md "Credits: prices"):
//   a refusal costs nothing, a detail 1, a page its tweets (at least 1; a HEAD as its GET), a
//   job's creation 1, status and account routes 0, a repeated Idempotency-Key nothing.
// (It found two bugs: a 400 on the wire that was charged, api-unanswered-not-charged.test.ts, and
// a 500 for {"toString": "x"} as a job parameter, jobs-params.test.ts.)
// At the end: the server still answers, the ledger's invariants hold, no balance is below zero,
// and every job the run created is executed, each row charged once, with no unfinished file left.
//
// CI runs seeds 1-3 with 1,500 requests each (10-40 s on 2 shared cores). A failure names the seed
// and the request, and the command that replays it. To run longer locally (a list of seeds, more
// requests each; SKEIN_FUZZ_VERBOSE=1 prints every request and answer):
//   SKEIN_FUZZ_SEED=11,12,13,14 SKEIN_FUZZ_REQUESTS=8000 npx vitest run test/sim/http-fuzz.sim.test.ts

const SEEDS = seedsFrom('SKEIN_FUZZ_SEED', [1, 2, 3]);
const REQUESTS = Number(process.env.SKEIN_FUZZ_REQUESTS ?? 1500);
const ANSWER_WITHIN_MS = 20_000;

/** What each route's 2xx costs, by Fastify's route pattern (aliases are routed to their /social twin). */
const PRICES: Record<string, 'one' | 'page' | 'create' | 'free'> = {
  'GET /social/tweets/:id': 'one',
  'GET /social/statuses/show': 'one',
  'GET /social/article/:article_id': 'one',
  'GET /social/spaces/show': 'one',
  'GET /spaces/show': 'one',
  'GET /twitter/user/:user': 'one',
  'GET /social/user/:user_id/tweets': 'page',
  'GET /social/user/:user_id/tweets-and-replies': 'page',
  'GET /social/search': 'page',
  'POST /social/tweets/:tweet_id/comments/asyncJob': 'create',
  'POST /social/search/asyncJob': 'create',
  'GET /jobs/:job_id': 'free',
  'POST /jobs/:job_id/cancel': 'free',
  'GET /social/account': 'free',
  'GET /user/balance': 'free',
  'GET /webhooks': 'free',
  'PUT /webhooks': 'free',
  'GET /webhooks/inboxes': 'free',
  'POST /webhooks/inboxes': 'free',
  'GET /inbox/:token': 'free',
  'POST /inbox/:token': 'free',
  'GET /datafiles/:token/:name': 'free',
};

/** What the server saw of a request (an onSend hook): the route it was routed to and whose key it carried. */
interface Seen {
  route: string | undefined;
  method: string;
  url: string;
  userId: number | undefined;
  idempotencyKey: string | undefined;
}

class FuzzFailure extends Error {}

async function fuzzSeed(seed: number, requests: number): Promise<{ statuses: Record<number, number>; jobs: number; charged: number }> {
  const r = prng(seed);
  const engine = testEngine({ ids: new SeededIds(`fuzz-${seed}`) });
  writeApiCorpus(engine);
  writeConversation(engine.db, 40, 5);
  const made = (name: string, credits?: number) => createKey(engine, name, { credits });
  const rich = made('rich');
  fund(engine, rich.user.id);
  const poor = made('poor', 40); // 402s after a few reads
  engine.db.prepare('UPDATE api_users SET per_minute_limit = 100000 WHERE id = ?').run(poor.user.id);
  const slow = made('slow'); // 429s: 5 a minute, while the clock moves ~1.5 s a request
  engine.db.prepare('UPDATE api_users SET per_minute_limit = 5 WHERE id = ?').run(slow.user.id);
  const gone = made('gone');
  revokeKey(engine, gone.key);
  const oracle = made('oracle'); // asks again with GET what a HEAD was charged for
  fund(engine, oracle.user.id);
  const users = [rich, poor, slow, gone, oracle].map((k) => k.user.id);

  // A finished job, so /datafiles/ has a real file to fuzz around.
  const setupRunner = startJobRunner(engine, { mode: 'inline' });
  const done = await finishedExport(engine, setupRunner, rich.user.id, 5);
  await setupRunner.stop();

  const seen: Seen[] = [];
  const app: FastifyInstance = await buildHttpApp(engine);
  app.addHook('onSend', (request, _reply, payload, next) => {
    seen.push({
      route: request.routeOptions.url,
      method: request.method,
      url: request.url,
      userId: request.apiUser?.id,
      idempotencyKey: typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : undefined,
    });
    next(null, payload);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const port = (app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}`;
    const get = async (path: string, key: string) => {
      const res = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } });
      return { status: res.status, text: await res.text() };
    };
    // The same target bytes as the request (fetch would read a raw '#' as the start of a fragment).
    const rawGet = async (path: string, key: string) => {
      const res = await exchange(port, Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`), { timeoutMs: ANSWER_WITHIN_MS });
      return res === null || res === 'timeout' ? { status: 0, text: '' } : { status: res.status, text: res.body };
    };
    const cursors = [
      (JSON.parse((await get(`/social/user/${AUTHOR_ID}/tweets-and-replies`, oracle.key)).text) as { next_cursor: string }).next_cursor,
      (JSON.parse((await get('/social/search?query=Post', oracle.key)).text) as { next_cursor: string }).next_cursor,
    ];
    const ctx: FuzzContext = {
      port,
      keys: { rich: rich.key, poor: poor.key, slow: slow.key, revoked: gone.key },
      cursors,
      jobIds: [done.id],
      datafile: `/datafiles/${done.datafile_token}/${done.result_file}`,
      inboxToken: createInbox(engine.db, engine.ids, rich.user.id, engine.clock.nowMs()),
    };

    const debits = () => new Map(users.map((u) => [u, balanceOf(engine.db, u).debitsPosted]));
    const start = debits();
    const expectedSpend = new Map(users.map((u) => [u, 0]));
    const idempotent = new Set<string>();
    const statuses: Record<number, number> = {};

    for (let n = 0; n < requests; n++) {
      engine.clock.advance(r.int(3000));
      const req = fuzzRequest(r, ctx);
      const before = debits();
      seen.length = 0;
      const res = await exchange(port, req.bytes, { end: req.end, timeoutMs: ANSWER_WITHIN_MS });
      const failed = (why: string): never => {
        throw new FuzzFailure(
          `seed ${seed}, request ${n + 1} of ${requests}: ${why}\n  sent: ${req.summary}\n  got: ${describeAnswer(res)}\n` +
            `  replay: SKEIN_FUZZ_SEED=${seed} SKEIN_FUZZ_REQUESTS=${n + 1} npx vitest run test/sim/http-fuzz.sim.test.ts`,
        );
      };
      if (res === 'timeout') failed(`no answer within ${ANSWER_WITHIN_MS / 1000} s`);
      if (res === null) failed('the connection closed without an answer');
      const answer = res as RawResponse;
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (process.env.SKEIN_FUZZ_VERBOSE) console.log(answer.status, req.summary.slice(0, 300), answer.body.slice(0, 150));
      checkAnswer(answer, req, failed);

      // Credits: exactly the price of this answer, to the user whose key the server accepted.
      const ok = answer.status >= 200 && answer.status < 300;
      const last = seen.at(-1);
      const want = new Map(users.map((u) => [u, 0]));
      if (ok) {
        if (!last) failed('a 2xx that no route answered');
        const route = `${last!.method === 'HEAD' ? 'GET' : last!.method} ${last!.route}`;
        const kind = PRICES[route] ?? failed(`a 2xx from ${route}, which the price table does not know`);
        let price = kind === 'one' || kind === 'create' ? 1 : 0;
        if (kind === 'page') {
          // A HEAD is charged as its GET: the same GET by the oracle (the corpus does not change) says for how much.
          // (An absolute-form target, http://127.0.0.1:PORT/..., is routed by its path.)
          const path = last!.url.startsWith('/') ? last!.url : last!.url.replace(/^[a-z]+:\/\/[^/]*/i, '');
          const page = last!.method === 'HEAD' ? await rawGet(path, oracle.key) : { status: answer.status, text: answer.body };
          if (page.status !== 200) failed(`the oracle's GET of ${path} answered ${page.status}`);
          price = Math.max(1, (JSON.parse(page.text) as { tweets: unknown[] }).tweets.length);
          if (last!.method === 'HEAD') want.set(oracle.user.id, price);
        }
        if ((kind === 'one' || kind === 'page') && last!.idempotencyKey !== undefined) {
          const k = `${last!.userId}:${last!.idempotencyKey}`;
          if (idempotent.has(k)) price = 0;
          idempotent.add(k);
        }
        if (last!.userId !== undefined) want.set(last!.userId, want.get(last!.userId)! + price);
        else if (price !== 0) failed(`a metered 2xx from ${route} without a user`);
        if (kind === 'create') ctx.jobIds.push((JSON.parse(answer.body) as { job_id: number }).job_id);
      }
      const after = debits();
      for (const u of users) {
        const got = after.get(u)! - before.get(u)!;
        if (got !== want.get(u)) failed(`user ${u} was charged ${got} credits for this answer, not ${want.get(u)}`);
        expectedSpend.set(u, expectedSpend.get(u)! + want.get(u)!);
      }
    }

    // Nothing charged between the answers, nobody below zero.
    const end = debits();
    for (const u of users) {
      expect(end.get(u)! - start.get(u)!, `seed ${seed}: user ${u}'s spend`).toBe(expectedSpend.get(u)!);
      expect(balanceOf(engine.db, u).available, `seed ${seed}: user ${u}'s balance`).toBeGreaterThanOrEqual(0);
    }
    // Still serving, and still right.
    const alive = await get(`/social/tweets/${DETAIL_ID}`, rich.key);
    expect(alive.status, `seed ${seed}: the server no longer answers`).toBe(200);
    expect(alive.text).toContain(`"id":${DETAIL_ID}`);
    expect(checkInvariants(engine.db), `seed ${seed}`).toEqual([]);

    // Every job the run created is executed, each row charged once. (Webhook URLs the run set point
    // at 127.0.0.1:9, where nothing listens: a delivery fails at once and is not repeated.)
    const runner = startJobRunner(engine, { mode: 'inline' });
    try {
      runner.poke();
      await runner.idle();
    } finally {
      await runner.stop();
    }
    for (const jobId of ctx.jobIds) {
      const job = getJob(engine.db, jobId)!;
      expect(['success', 'error'], `seed ${seed}: job ${jobId}: ${job.last_error}`).toContain(job.status);
      const [hold] = holdsOfJob(engine.db, jobId);
      expect(hold?.open, `seed ${seed}: job ${jobId}'s hold`).toBe(false);
      expectEachRowChargedOnce(engine.db, jobId, job.status === 'success' ? job.result_rows! : hold!.posted);
    }
    expect(checkInvariants(engine.db), `seed ${seed}, after the jobs`).toEqual([]);
    expect(readdirSync(partialDir(engine.dataDir)), `seed ${seed}: unfinished files`).toEqual([]);
    return { statuses, jobs: ctx.jobIds.length - 1, charged: [...end.values()].reduce((a, b) => a + b, 0) - [...start.values()].reduce((a, b) => a + b, 0) };
  } finally {
    app.server.closeAllConnections();
    await app.close();
  }
}

/** The spec's refusal shape, JSON types, no CORS, and nothing served where it must be refused. */
function checkAnswer(res: RawResponse, req: FuzzRequest, failed: (why: string) => never): void {
  // 505 is the answer to an HTTP version other than 1.0 and 1.1 (docs/decisions.md "HTTP: requests Node answers itself").
  const unsupportedVersion = res.status === 505 && req.version !== 'HTTP/1.1' && req.version !== 'HTTP/1.0';
  if (!(res.status >= 200 && res.status < 500) && !unsupportedVersion) failed(`status ${res.status}`);
  if (res.headerNames.some((h) => h.startsWith('access-control-'))) failed('an Access-Control header');
  const ok = res.status < 300;
  if (ok && req.mustRefuse) failed(`served although ${req.mustRefuse}`);
  const isFile = ok && res.headers['content-disposition']?.startsWith('attachment');
  if (!isFile && res.headers['content-type'] !== 'application/json; charset=utf-8') failed(`content-type ${res.headers['content-type']}`);
  if (req.method === 'HEAD' && res.body === '') return;
  if (ok) {
    if (!isFile) {
      try {
        parseJsonExact(res.body);
      } catch (err) {
        failed(`a 2xx body that is not JSON: ${(err as Error).message}`);
      }
    }
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    failed('a refusal whose body is not JSON');
  }
  const b = body as Record<string, unknown>;
  if (typeof b !== 'object' || b === null || Object.keys(b).join() !== 'status,message') failed('a refusal that is not exactly {status, message}');
  if (b.status !== 'error' || typeof b.message !== 'string' || b.message.trim() === '') failed('a refusal without status "error" and a message');
  if (/\n\s+at /.test(b.message as string)) failed('a stack trace in the message');
}

function describeAnswer(res: RawResponse | null | 'timeout'): string {
  if (res === null || res === 'timeout') return String(res);
  return `${res.status} ${JSON.stringify(res.headers)} ${res.body.slice(0, 400)}`;
}

describe('HTTP fuzzing of the local API (seeded, bounded)', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${REQUESTS} requests, no 5xx, spec refusals, exact charges, a sound ledger`, { timeout: 120_000 + REQUESTS * 100 }, async () => {
      const { statuses, jobs, charged } = await fuzzSeed(seed, REQUESTS);
      // The mix, so a generator that stopped reaching the routes shows: most requests must get past
      // the host check and auth into the routes (200s, 404s and 422s of their own).
      console.log(`http fuzz seed ${seed}: statuses ${JSON.stringify(statuses)}, ${jobs} jobs created, ${charged} credits charged`);
      expect(statuses[200] ?? 0).toBeGreaterThan(REQUESTS / 10);
      expect(statuses[422] ?? 0).toBeGreaterThan(REQUESTS / 20);
      expect(jobs).toBeGreaterThan(0);
    });
  }
});
