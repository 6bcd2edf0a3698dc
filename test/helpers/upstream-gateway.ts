import { existsSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import { createKey } from '../../src/main/engine/keys';
import { checkInvariants, transfersOf } from '../../src/main/engine/ledger';
import { envKeySource, getUpstreamConfig, REQUEST_TIMEOUT_MS, setUpstreamConfig, type UpstreamSettings } from '../../src/main/engine/upstream';
import { setUpstreamSleep, setUpstreamTimeout } from '../../src/main/engine/upstream/gateway';
import { fund } from '../fixtures/api-corpus';
import { testEngine } from './engine';
import { startServer } from './http';
import { upstreamSkein } from './upstream-skein';

// Skein B reading through Skein A (test/helpers/upstream-skein.ts), over real HTTP on loopback:
//   client --HTTP--> B (its own server, key, corpus) --HTTP--> tap --HTTP--> A
// The tap is a tiny node:http proxy in front of A: it counts what reaches A and, when told, stands
// in for A failing (500, a 429 that never clears, or no answer at all). Waits go through a sleep
// that advances both manual clocks, so nothing depends on timing but the hanging case's timeout.

export type Fault = 'none' | '500' | '429' | 'hang';

/** Per try while A hangs: small, so the 3 tries end quickly (the real one, 30 s, applies otherwise). */
export const TEST_TIMEOUT_MS = 100;

const taps: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  while (taps.length) {
    const s = taps.pop()!;
    s.closeAllConnections();
    await new Promise((done) => s.close(done));
  }
});

/** A proxy to `target` that counts requests and fails as `fault` says. */
async function tapInFront(target: string) {
  // onSeen: told of each request as it reaches the tap, before A has it (a test's moment to act).
  const state = { fault: 'none' as Fault, seen: [] as string[], onSeen: undefined as ((url: string) => void) | undefined };
  const { hostname, port } = new URL(target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.seen.push(req.url ?? '');
    state.onSeen?.(req.url ?? '');
    if (state.fault === 'hang') return; // never answers; B's timeout cuts it
    if (state.fault === '500') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"status":"error","message":"database on fire"}');
    if (state.fault === '429') return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"status":"error","message":"slow down"}');
    const out = httpRequest({ hostname, port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  taps.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

export interface PairOptions extends Partial<Omit<UpstreamSettings, 'url' | 'profile'>> {
  profile: 'spec' | 'socialdata';
}

/** A (the upstream, the API corpus) and B (empty, its upstream set to A through the tap). */
export async function gatewayPair(options: PairOptions) {
  const a = await upstreamSkein();
  const tap = await tapInFront(a.server.url);
  const b = testEngine({ upstreamKeys: envKeySource({ SKEIN_UPSTREAM_KEY: a.key }) });
  setUpstreamConfig(b.db, { url: tap.url, ...options }, b.clock.nowMs());
  const settings = (more: Partial<UpstreamSettings>): UpstreamSettings => {
    const now = getUpstreamConfig(b.db)!;
    return { url: tap.url, profile: options.profile, mode: now.mode, perMinute: now.perMinute, budgetItems: now.budgetItems, ...more };
  };
  const sleeps: number[] = [];
  setUpstreamSleep(b, async (ms) => {
    sleeps.push(ms);
    b.clock.advance(ms);
    a.engine.clock.advance(ms);
  });
  const server = await startServer(b);
  const local = createKey(b, 'analyst');
  fund(b, local.user.id);
  // Reads straight to A, to compare with, go under a key of their own so A's ledger and rate
  // limit for B's key count B's requests only.
  const directKey = createKey(a.engine, 'direct');
  fund(a.engine, directKey.user.id);
  /** Every answer B gave in this test, to look for the upstream key in. */
  const answers: string[] = [];
  return {
    a,
    b,
    tap: tap.state,
    sleeps,
    answers,
    localUserId: local.user.id,
    /** A fails as `fault` says from now on ('none': A again); while it hangs, B's timeout is TEST_TIMEOUT_MS. */
    failAs(fault: Fault) {
      tap.state.fault = fault;
      setUpstreamTimeout(b, fault === 'hang' ? TEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
    },
    /** Changes B's upstream settings (what is not given stays). */
    configure: (more: Partial<UpstreamSettings>) => setUpstreamConfig(b.db, settings(more), b.clock.nowMs()),
    /** Another local API user of B, funded. */
    addUser(name: string) {
      const created = createKey(b, name);
      fund(b, created.user.id);
      return { key: created.key, id: created.user.id };
    },
    /** A GET to B with B's local key (or the one given). */
    async get(path: string, key = local.key) {
      const r = await server.request(path, { key });
      answers.push(r.text, JSON.stringify([...r.headers]));
      return { ...r, source: r.headers.get('x-skein-source') };
    },
    /** The same GET straight to A with A's key (what B's answer is compared with). */
    direct: (path: string) => a.server.request(path, { key: directKey.key }),
    /** What A charged B's key (a.key, a.userId), one amount a request, in order. */
    charged: () =>
      a.engine.db
        .prepare("SELECT amount FROM ledger_transfers WHERE kind = 'posted' AND debit_account_id IN (SELECT id FROM ledger_accounts WHERE user_id = ?) ORDER BY seq")
        .pluck()
        .all(a.userId) as number[],
    /** B's spend book. */
    spend: () =>
      b.db.prepare('SELECT items, request, via, api_user_id AS apiUserId FROM upstream_spend ORDER BY seq').all() as {
        items: number;
        request: string;
        via: string;
        apiUserId: number | null;
      }[],
    /** The items of B's ledger's upstream transfers caused by a user, from that user's ledger history, oldest first. */
    upstreamLedger: (userId: number) => transfersOf(b.db, userId).filter((t) => t.direction === 'upstream').map((t) => t.amount),
    /** Whether B's database files hold `text` anywhere. */
    dbHolds: (text: string) => [b.dbFile, `${b.dbFile}-wal`, `${b.dbFile}-shm`].some((f) => existsSync(f) && readFileSync(f).includes(text)),
  };
}

export type Pair = Awaited<ReturnType<typeof gatewayPair>>;

/** A page's JSON text with its next_cursor emptied: B's cursors are its own, the rest must equal A's. */
export const withoutCursor = (text: string) => text.replace(/"next_cursor":"[^"]*"/, '"next_cursor":""');
export const cursorOf = (text: string) => (JSON.parse(text) as { next_cursor: string }).next_cursor;

/** The client's paths on B (and A), in the profile's dialect. */
export function pathsFor(prefix: '/social' | '/twitter') {
  return {
    tweet: (id: string) => `${prefix}/tweets/${id}`,
    article: (id: string) => `${prefix}/article/${id}`,
    space: (id: string) => (prefix === '/social' ? `/social/spaces/show?id=${id}` : `/twitter/space/${id}`),
    user: (ref: string) => `/twitter/user/${ref}`,
    timeline: (kind: 'tweets' | 'tweets-and-replies', userId: string) => `${prefix}/user/${userId}/${kind}`,
    search: (query: string) => `${prefix}/search?query=${encodeURIComponent(query)}`,
  };
}

export const withCursor = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

/**
 * B's spend book and A's ledger for B's key agree line for line; every line is the local user's;
 * B's ledger holds each line in its upstream account, in the local user's history, and is sound.
 */
export function expectBooksAgree(p: Pair, localUserId = p.localUserId): void {
  const lines = p.spend();
  expect(lines.map((l) => l.items)).toEqual(p.charged());
  for (const line of lines) expect([line.via, line.apiUserId]).toEqual(['api', localUserId]);
  expect(p.upstreamLedger(localUserId)).toEqual(lines.map((l) => l.items));
  expect(checkInvariants(p.b.db)).toEqual([]);
}
