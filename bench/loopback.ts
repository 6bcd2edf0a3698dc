import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

// The client side of the HTTP benches (api.bench.ts, upstream.bench.ts): a bench server
// (bench/api-server.ts) in its own process, so the client loop does not share its event loop, and
// keep-alive GETs with a fixed number in flight.

export interface Server {
  port: number;
  child: ChildProcess;
  /** The server process's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  /** HTTP requests the server process has received so far (every path, every status). */
  requestsSeen(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts `bench/api-server.ts <args>`; `env` is added to this process's environment.
 * SKEIN_BENCH_NODE_ARGS adds node flags to every server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
 * (NODE_OPTIONS refuses --cpu-prof); the servers exit cleanly on stop, so profiles are written.
 */
export async function startServer(args: string[], env: Record<string, string> = {}): Promise<Server> {
  const nodeArgs = (process.env.SKEIN_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(__dirname, 'api-server.ts'), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  let exitCode: number | null | undefined;
  const pending = new Set<(err: Error) => void>();
  child.once('exit', (code) => {
    exitCode = code;
    for (const reject of pending) reject(new Error(`bench server exited with ${code}`));
  });
  const waitFor = (re: RegExp) =>
    new Promise<number>((resolve, reject) => {
      if (exitCode !== undefined) return reject(new Error(`bench server exited with ${exitCode}`));
      const check = () => {
        const m = re.exec(out);
        if (!m) return;
        out = out.slice(m.index + m[0].length);
        child.stdout!.off('data', check);
        pending.delete(reject);
        resolve(Number(m[1]));
      };
      pending.add(reject);
      child.stdout!.on('data', check);
      check();
    });
  const ask = (command: string, answer: RegExp) => {
    const answered = waitFor(answer);
    child.stdin!.write(`${command}\n`);
    return answered;
  };
  const port = await waitFor(/PORT (\d+)/);
  return {
    port,
    child,
    cpuMicros: () => ask('cpu', /CPU (\d+)/),
    requestsSeen: () => ask('reqs', /REQS (\d+)/),
    stop: () => new Promise((resolve) => {
      if (exitCode !== undefined) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** Runs `fn` and adds the server's CPU time and the requests it served to `acc`. */
export async function metered(server: Server, acc: { cpu: number; requests: number }, requests: number, fn: () => Promise<number>): Promise<number> {
  const before = await server.cpuMicros();
  const value = await fn();
  acc.cpu += (await server.cpuMicros()) - before;
  acc.requests += requests;
  return value;
}

export const perRequest = (acc: { cpu: number; requests: number }) => acc.cpu / acc.requests;

export interface Answer {
  status: number;
  body: string;
  /** The `x-skein-source` header (local, cache, upstream, stale), absent on a Skein with no upstream. */
  source: string | undefined;
}

export function get(agent: Agent, port: number, path: string, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}`, accept: 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        const source = res.headers['x-skein-source'];
        resolve({ status: res.statusCode!, body, source: Array.isArray(source) ? source.join(',') : source });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** What one client worker asks next, and what it learns from each answer (a timeline walk: its cursor). */
export interface Requests {
  next(): string;
  answered?(answer: Answer): void;
}

/**
 * `total` requests with `concurrency` in flight; returns how many succeeded (status 200). `paths`
 * is one path, or makes each worker its own Requests. `check` sees every answer and may throw
 * (upstream.bench.ts: a read that was not a cache hit).
 */
export async function load(port: number, paths: string | (() => Requests), key: string, total: number, concurrency: number, check?: (answer: Answer) => void): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  let ok = 0;
  const worker = async () => {
    const requests = typeof paths === 'string' ? { next: () => paths } : paths();
    while (next < total) {
      next++;
      const answer = await get(agent, port, requests.next(), key);
      try {
        check?.(answer);
      } catch (err) {
        next = total; // the other workers stop too
        throw err;
      }
      requests.answered?.(answer);
      if (answer.status === 200) ok++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  if (ok !== total) throw new Error(`${total - ok} of ${total} requests failed`);
  return ok;
}
