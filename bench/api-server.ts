// A server for bench/api.bench.ts, run as its own process so the client loop does not share its
// event loop: `skein <dataDir>` (the whole app: host check, auth, metering, SQLite, JSON),
// `skein-unmetered <dataDir>` (the same without metering) or
// `bare <bodyFile>` (node:http answering one fixed body). Prints "PORT <n>" once listening.
// Ends on SIGTERM or when stdin closes. The upstream bench runs Skein A here too, with
// SKEIN_UPSTREAM_KEY in B's environment (createEngine's default key source).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createEngine } from '../src/main/engine/engine';
import { buildHttpApp } from '../src/main/http/app';
import { startWalCheckpointer } from '../src/main/engine/store/wal-checkpointer';
import { walCheckpointerWanted } from './wal';

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
  // A clean exit on SIGTERM, so `node --cpu-prof` writes its profile when the bench stops us.
  process.once('SIGTERM', () => process.exit(0));
  // "cpu" on stdin: answers "CPU <us>" with this process's CPU time so far (user + system), so the
  // bench can report CPU per request, which a busy machine does not distort the way it does req/s.
  // "reqs" on stdin: answers "REQS <n>", the HTTP requests this process has received, counted by
  // node:http before any routing, so the upstream bench can prove that A saw none while B served
  // from its cache.
  let requests = 0;
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('data', (d: Buffer) => {
    const text = d.toString();
    if (text.includes('cpu')) {
      const u = process.cpuUsage();
      console.log(`CPU ${u.user + u.system}`);
    }
    if (text.includes('reqs')) console.log(`REQS ${requests}`);
  });
  if (mode === 'bare') {
    const body = readFileSync(arg!);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      console.log(`PORT ${typeof a === 'object' && a ? a.port : 0}`);
    });
    return;
  }
  const engine = createEngine({ dataDir: arg! });
  // As `skein serve` runs: WAL checkpoints on their own thread (SKEIN_BENCH_WAL=auto: as before issue 17).
  if (walCheckpointerWanted()) startWalCheckpointer(engine);
  // `skein-unmetered`: the same app without the limiter and the ledger, to show their share.
  const app = await buildHttpApp(engine, { metering: mode !== 'skein-unmetered' });
  app.server.on('request', () => requests++);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  console.log(`PORT ${typeof a === 'object' && a ? a.port : 0}`);
}

void main();
