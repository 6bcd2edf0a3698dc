// A server for bench/api.bench.ts, run as its own process so the client loop does not share its
// event loop: `skein <dataDir>` (the whole app: host check, auth, metering, SQLite, JSON) or
// `bare <bodyFile>` (node:http answering one fixed body). Prints "PORT <n>" once listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createEngine } from '../src/main/engine/engine';
import { buildHttpApp } from '../src/main/http/app';

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
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
  const app = await buildHttpApp(engine);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  console.log(`PORT ${typeof a === 'object' && a ? a.port : 0}`);
}

void main();
