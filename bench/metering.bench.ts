import { createEngine } from '../src/main/engine/engine';
import { createKey } from '../src/main/engine/keys';
import { grant } from '../src/main/engine/ledger';
import { buildHttpApp } from '../src/main/http/app';
import { DETAIL_ID, writeApiCorpus } from '../test/fixtures/api-corpus';
import { type Bench, median, sideBySide, throughput } from './lib';

// Metering overhead per request: the same endpoint (tweet details, 1 credit) with metering on
// (limiter, balance check with reservation, a ledger charge written per request, RateLimit
// headers) against the same app with metering off. In-process requests (Fastify inject), so the
// figure is the server's own work, without the loopback network's noise.

const bench: Bench = {
  name: 'metering: GET /social/tweets/<id>, metering on vs off',
  unit: 'req/s',
  higherIsBetter: true,
  baselineName: 'metering off',
  target: 'overhead well under 1 ms per request',
  async run(ctx) {
    const requests = ctx.quick ? 1500 : 15_000;
    const runs = ctx.quick ? 3 : 5;
    const engine = createEngine({ dataDir: ctx.dir });
    try {
      writeApiCorpus(engine);
      const { key, user } = createKey(engine, 'bench');
      // The limit and balance must not be what stops the bench.
      engine.db.prepare('UPDATE api_users SET per_minute_limit = 100000 WHERE id = ?').run(user.id);
      grant(engine.db, { transferId: 'bench:credits', userId: user.id, amount: 100_000_000, nowMs: engine.clock.nowMs() });
      const on = await buildHttpApp(engine, { metering: true });
      const off = await buildHttpApp(engine, { metering: false });
      const headers = { authorization: `Bearer ${key}`, host: '127.0.0.1' };
      // CPU time per request besides wall time: on a busy machine the wall figure is dominated by
      // waiting (for the disk, for other processes); CPU time shows the work metering adds.
      const cpuUs = new Map<typeof on, number[]>();
      const hit = (app: typeof on) => async () => {
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < requests; i++) {
          const r = await app.inject({ method: 'GET', url: `/social/tweets/${DETAIL_ID}`, headers });
          if (r.statusCode !== 200) throw new Error(`unexpected ${r.statusCode}: ${r.body}`);
        }
        const cpu = process.cpuUsage(cpu0);
        cpuUs.set(app, [...(cpuUs.get(app) ?? []), (cpu.user + cpu.system) / requests]);
        return requests;
      };
      // warm-up, both sides
      await hit(on)();
      await hit(off)();
      cpuUs.clear();
      const result = await sideBySide(runs, () => throughput(hit(on)), () => throughput(hit(off)));
      await on.close();
      await off.close();
      const overheadUs = 1e6 / result.subject.median - 1e6 / result.baseline.median;
      const cpuOn = median(cpuUs.get(on) ?? []);
      const cpuOff = median(cpuUs.get(off) ?? []);
      ctx.log(`metering adds ${overheadUs.toFixed(0)} µs wall, ${(cpuOn - cpuOff).toFixed(0)} µs CPU per request (${requests} requests x ${runs} runs)`);
      return {
        ...result,
        extra: { wall_overhead_us: overheadUs, cpu_us_on: cpuOn, cpu_us_off: cpuOff, cpu_overhead_us: cpuOn - cpuOff, requests_per_run: requests },
      };
    } finally {
      engine.close();
    }
  },
};

export default [bench];
