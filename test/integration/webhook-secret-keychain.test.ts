import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, dbFileOf } from '../../src/main/engine/engine';
import { openDb } from '../../src/main/engine/store/db';
import { apiKey } from '../fixtures/api-corpus';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';
import { tempDir } from '../helpers/temp';

// Webhook signing secrets and the real OS keychain (issue 13 point 13): the real `skein` CLI and
// `skein serve` (from sources, through tsx), each inside a D-Bus session with an unlocked
// gnome-keyring (a real Secret Service; its keyrings live in a temp XDG_DATA_HOME, so they outlast
// one session and are this test's alone), or with no session bus at all (no keychain). Receivers are
// real loopback servers that check the HMAC; every byte of the data dir is searched for the secret.

const repo = join(__dirname, '..', '..');
const cliSource = join(repo, 'src', 'main', 'cli', 'index.ts');
const UNLOCK = 'echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null';

type Where = { keychain: true; keyrings: string } | { keychain: false };

function envOf(where: Where): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SKEIN_NO_BROWSER: '1' };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  if (where.keychain) env.XDG_DATA_HOME = where.keyrings;
  return env;
}

/** The command line that runs `skein ...args` there (in a keyring session: sh runs it as "$@"). */
function commandOf(where: Where, args: string[], shell: string): [string, string[]] {
  const node = [process.execPath, '--import', 'tsx', cliSource, ...args];
  return where.keychain ? ['dbus-run-session', ['--', 'sh', '-c', `${UNLOCK}; ${shell}`, 'sh', ...node]] : [node[0]!, node.slice(1)];
}

function skein(where: Where, ...args: string[]): { code: number | null; out: string; err: string } {
  const [cmd, argv] = commandOf(where, args, 'exec "$@"');
  const r = spawnSync(cmd, argv, { cwd: repo, env: envOf(where), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Serving {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

const running: Serving[] = [];
const servers: Server[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop();
  while (servers.length) {
    const s = servers.pop()!;
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A stand-in for the built app page: serve from sources has no build, and the API is what is used here. */
function rendererDir(): string {
  const dir = tempDir('skein-renderer-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Skein</title>');
  return dir;
}

/** `skein serve` there, until stop(): SIGTERM to the serve process itself (its pid, printed by the wrapper). */
async function serve(where: Where, dataDir: string): Promise<Serving> {
  const args = ['serve', '--port', '0', '--no-demo', '--renderer-dir', rendererDir(), '--data-dir', dataDir];
  const [cmd, argv] = commandOf(where, args, '"$@" & echo "serve-pid=$!"; wait $!');
  const child: ChildProcess = spawn(cmd, argv, { cwd: repo, env: envOf(where), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`skein serve did not start within 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const m = /Skein is running at (http:\/\/[^/\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`skein serve ended before starting:\n${out}`)));
    void exited.finally(() => clearTimeout(timer));
  }).catch(async (err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  const serving: Serving = {
    url,
    output: () => out,
    async stop() {
      const i = running.indexOf(serving);
      if (i >= 0) running.splice(i, 1);
      const pid = where.keychain ? Number(/serve-pid=(\d+)/.exec(out)?.[1]) : child.pid;
      if (child.exitCode === null && child.signalCode === null && pid) process.kill(pid, 'SIGTERM');
      await exited;
    },
  };
  running.push(serving);
  return serving;
}

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

async function receiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, received };
}

/** Whether a delivery carries X-Skein-Signature over its exact body with this secret. */
function signedWith(secret: string, m: Received): boolean {
  const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(m.headers['x-skein-signature']));
  return !!sig && sig[2] === createHmac('sha256', secret).update(`${sig[1]}.${m.body}`).digest('hex');
}

/** A data dir with a corpus and a funded api user 'analyst'; no process has it open. */
function dataDirWithAnalyst(): { dataDir: string; key: string } {
  const dataDir = tempDir('skein-webhook-secret-');
  const engine = createEngine({ dataDir });
  try {
    writeConversation(engine.db, 6, 2);
    return { dataDir, key: apiKey(engine, 'analyst') };
  } finally {
    engine.close();
  }
}

/**
 * Every file in the data dir (the database, its -wal and -shm, exports, tokens) that holds `secret`,
 * or its first or last 20 characters: a row rewritten in place can cover part of an old value and
 * leave the rest in the page.
 */
function filesHolding(dataDir: string, secret: string): string[] {
  const found: string[] = [];
  const parts = [secret, secret.slice(0, 20), secret.slice(-20)].map((p) => Buffer.from(p));
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (parts.some((p) => readFileSync(path).includes(p))) found.push(path.slice(dataDir.length + 1));
    }
  };
  walk(dataDir);
  return found;
}

function secretColumns(dataDir: string): unknown {
  const db = openDb(dbFileOf(dataDir));
  try {
    return db.prepare(`SELECT webhook_secret, webhook_secret_ref FROM api_users WHERE name = 'analyst'`).get();
  } finally {
    db.close();
  }
}

async function until<T>(what: string, read: () => Promise<T> | T, done: (v: T) => boolean): Promise<T> {
  const give_up_ms = Date.now() + 60_000;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > give_up_ms) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function finishedJob(skein: Serving, key: string): Promise<number> {
  const res = await fetch(`${skein.url}/social/tweets/${ROOT_ID}/comments/asyncJob?max_count=1`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { job_id: number };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.job_id;
}

async function deliveries(skein: Serving, key: string): Promise<{ job_id: number; state: string; error: string | null }[]> {
  const res = await fetch(`${skein.url}/webhooks`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { deliveries: { job_id: number; state: string; error: string | null }[] }).deliveries;
}

const ENTRY = /^webhook-secret-\d+-[0-9a-f]{16}$/;

describe('webhook secrets in the OS keychain (gnome-keyring in a D-Bus session)', () => {
  it('keeps a secret set where a keychain answers there alone, signs with it, and holds deliveries a Skein without the keychain cannot sign', { timeout: 240_000 }, async () => {
    const keychain: Where = { keychain: true, keyrings: tempDir('skein-keyrings-') };
    const { dataDir, key } = dataDirWithAnalyst();
    const hook = await receiver();
    const secret = 'the-secret-in-the-keychain-7f3a9c';

    const set = skein(keychain, 'webhooks', 'set', '--user', 'analyst', '--url', hook.url, '--secret', secret, '--data-dir', dataDir);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('Deliveries are signed (X-Skein-Signature); the secret is kept in the OS keychain.');
    expect(filesHolding(dataDir, secret)).toEqual([]);
    expect(secretColumns(dataDir)).toEqual({ webhook_secret: null, webhook_secret_ref: expect.stringMatching(ENTRY) });
    expect(skein(keychain, 'webhooks', 'show', '--user', 'analyst', '--data-dir', dataDir).out).toContain(`Webhook of analyst: ${hook.url} (signed; secret in the OS keychain)`);

    const withKeychain = await serve(keychain, dataDir);
    const first = await finishedJob(withKeychain, key);
    await until('the first delivery', () => hook.received.length, (n) => n === 1);
    expect((JSON.parse(hook.received[0]!.body) as { data: { job_id: number } }).data.job_id).toBe(first);
    expect(signedWith(secret, hook.received[0]!)).toBe(true);
    expect(withKeychain.output()).not.toContain('Moved');
    await withKeychain.stop();
    expect(filesHolding(dataDir, secret)).toEqual([]);

    // The same data dir served where no keychain answers: the delivery waits, unsent, and says why.
    const without = await serve({ keychain: false }, dataDir);
    expect(without.output()).toContain('Webhook signing secrets are kept in the database, which only your account can read.');
    const second = await finishedJob(without, key);
    const waiting = await until('the held delivery', () => deliveries(without, key), (ds) => ds.some((d) => d.job_id === second && d.error !== null));
    expect(waiting.find((d) => d.job_id === second)).toMatchObject({
      state: 'pending',
      error:
        'Not sent yet: its signing secret is kept in the OS keychain, and no keychain answers in this Skein process (a Secret Service must run, unlocked, in its session). ' +
        'Tried again every minute for 24 h; a webhook is never sent unsigned.',
    });
    expect(hook.received).toHaveLength(1);
    await without.stop();

    // The next start where the keychain answers sends it at once, signed.
    const again = await serve(keychain, dataDir);
    await until('the held delivery, sent', () => hook.received.length, (n) => n === 2);
    expect((JSON.parse(hook.received[1]!.body) as { data: { job_id: number } }).data.job_id).toBe(second);
    expect(signedWith(secret, hook.received[1]!)).toBe(true);
    expect((await until('its record', () => deliveries(again, key), (ds) => ds[0]?.state === 'delivered'))[0]).toMatchObject({ job_id: second, state: 'delivered', error: null });
    await again.stop();
    expect(filesHolding(dataDir, secret)).toEqual([]);
  });

  it('keeps a secret in the database where no keychain answers, says so, and moves it to the keychain at the first start where one does', { timeout: 240_000 }, async () => {
    const keychain: Where = { keychain: true, keyrings: tempDir('skein-keyrings-') };
    const { dataDir, key } = dataDirWithAnalyst();
    const hook = await receiver();
    // Long, as a generated secret is: the row that names the keychain entry instead is shorter, so
    // the old value is not simply covered by the new one (secret-store.ts writeOverwriting).
    const secret = `set-where-no-keychain-answered-${createHmac('sha256', 'seed').update('secret').digest('hex')}${createHmac('sha256', 'seed').update('more').digest('base64url')}`;

    const set = skein({ keychain: false }, 'webhooks', 'set', '--user', 'analyst', '--url', hook.url, '--secret', secret, '--data-dir', dataDir);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain(
      'Deliveries are signed (X-Skein-Signature). No OS keychain answers here, so the secret is kept in the database in the data dir, which only your account can read; ' +
        "'skein serve' or the app moves it to the keychain when they start where one answers.",
    );
    expect(skein({ keychain: false }, 'webhooks', 'show', '--user', 'analyst', '--data-dir', dataDir).out).toContain('(signed; secret in the database: no OS keychain answered)');
    // The search below finds a secret where there is one.
    expect(filesHolding(dataDir, secret)).toEqual(['skein.db']);
    expect(secretColumns(dataDir)).toEqual({ webhook_secret: secret, webhook_secret_ref: null });

    const moving = await serve(keychain, dataDir);
    expect(moving.output()).toContain('Moved 1 webhook signing secret from the database to the OS keychain; the database now keeps only where it is.');
    const jobId = await finishedJob(moving, key);
    await until('the delivery', () => hook.received.length, (n) => n === 1);
    expect((JSON.parse(hook.received[0]!.body) as { data: { job_id: number } }).data.job_id).toBe(jobId);
    expect(signedWith(secret, hook.received[0]!)).toBe(true);
    await moving.stop();
    expect(filesHolding(dataDir, secret)).toEqual([]);
    expect(secretColumns(dataDir)).toEqual({ webhook_secret: null, webhook_secret_ref: expect.stringMatching(ENTRY) });

    // Said once: nothing is left to move.
    const next = await serve(keychain, dataDir);
    expect(next.output()).not.toContain('Moved');
    await next.stop();
    expect(existsSync(dbFileOf(dataDir))).toBe(true);
  });
});
