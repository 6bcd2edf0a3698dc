// A 100,000-row table in real Chromium: the app's virtualised DataTable (#/dev/table) against a
// plain, non-virtualised HTML table of the same rows. Reported, never asserted: rows in the DOM,
// time until the table is ready, and frame times while the table is scrolled programmatically, one
// step per frame: their intervals (requestAnimationFrame deltas, paced by the browser) and the main
// thread's work in each (from a Chromium trace taken meanwhile, frame-work.ts says why).
//
// "Ready" is what a person waits for: from the start of the navigation (the page's time origin)
// until the first rows have been painted *and* the table answers a scroll: it is scrolled 2,000 px
// (row 45 at the top), and ready is the frame after row 50 is in the DOM (READY_PROBE, installed
// before the page's own scripts). It is read from the page's clock, so Playwright's polling does not add
// to it. The scroll is 240 px a frame (about 14,000 px/s, 5.5 rows a frame: a fast fling on a
// touchpad, well above a turning mouse wheel), after the page has been idle for half a second.
// The subject is loaded and scrolled RUNS times, each in a fresh page: one page's p95 on shared
// cores is a matter of luck, so p50/p95 are over every frame of every run, and ready is the median.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, logIn } from '../test/helpers/browser';
import { startSkein } from '../test/helpers/skein-process';
import { FRAME_MARK, FRAME_TRACE_CATEGORIES, mainThreadWorkPerFrame, type TraceEvent } from './frame-work';
import { type Bench, median, percentile } from './lib';

// Installed before the page's scripts (addInitScript, which the page's CSP does not block):
// watches every frame for the table's first row, then scrolls and waits for the rows to follow.
const READY_PROBE = `(() => {
  const row = '[aria-label="Benchmark rows"] .body-row';
  window.__tableReady = {};
  const frame = (f) => requestAnimationFrame(f);
  const waitForRows = () => {
    if (!document.querySelector(row)) return frame(waitForRows);
    // The rows are in the DOM at this frame's callbacks and painted at its end: the next frame's
    // callbacks run after that paint.
    frame(() => {
      window.__tableReady.painted_ms = performance.now();
      const box = document.querySelector('[data-testid=table-body]');
      box.scrollTop = 2000;
      const waitForScroll = () => {
        if (!document.querySelector(row + '[aria-rowindex="50"]')) return frame(waitForScroll);
        frame(() => {
          window.__tableReady.ready_ms = performance.now();
          const data = performance.getEntriesByName('table-bench-data')[0];
          window.__tableReady.data_ms = data ? data.duration : 0;
          box.scrollTop = 0;
        });
      };
      frame(waitForScroll);
    });
  };
  frame(waitForRows);
})()`;

// Runs in the page: scrolls `selector` by `stepPx` once per frame for `frames` frames and returns
// the frame deltas and how many rows the DOM holds at the end.
const SCROLL_PROBE = `async ({ selector, frames, stepPx }) => {
  const el = document.querySelector(selector);
  await new Promise((r) => setTimeout(r, 500));
  const deltas = [];
  let last = performance.now();
  for (let i = 0; i < frames; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    performance.mark('${FRAME_MARK}');
    const now = performance.now();
    deltas.push(now - last);
    last = now;
    el.scrollTop += stepPx;
  }
  return { deltas, rowsInDom: el.querySelectorAll('[role=row], tr').length, scrollTop: el.scrollTop };
}`;

// SKEIN_BENCH_HEADFUL=1 (run under `xvfb-run -a npm run bench -- table` where no display exists):
// a real window. Measured on this 2-core machine at load 4.6, an empty scrolled box: headless
// p50/p95/p99 16.7/19.1/21.5 ms, in a window under Xvfb 16.6/17.5/19.5 ms.
const HEADFUL = process.env.SKEIN_BENCH_HEADFUL === '1';

/**
 * The share of frames that came late: more than 1.5 frame intervals (25 ms at 60 Hz) after the one
 * before, i.e. a refresh went by without a new frame. "p95 <= 16.7 ms" means at most 5% of them;
 * a p95 read as a time is blurred by the timer's jitter around 16.7 ms, this is not.
 */
export function lateShare(deltas: number[], frameMs = 1000 / 60): number {
  return deltas.filter((d) => d > frameMs * 1.5).length / deltas.length;
}

interface Probe {
  deltas: number[];
  /** The main thread's busy ms in each frame (frame-work.ts): what the page costs a frame. */
  work: number[];
  rowsInDom: number;
  scrollTop: number;
}

/** Scrolls while Chromium traces the page, so each frame's work is read besides its interval. */
async function probe(browser: Browser, page: Page, selector: string, frames: number): Promise<Probe> {
  await browser.startTracing(page, { categories: FRAME_TRACE_CATEGORIES });
  const probed = (await page.evaluate(`(${SCROLL_PROBE})(${JSON.stringify({ selector, frames, stepPx: 240 })})`)) as Omit<Probe, 'work'>;
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  return { ...probed, work: mainThreadWorkPerFrame(trace.traceEvents) };
}

interface Ready {
  painted_ms: number;
  ready_ms: number;
  /** Of that, the bench page making its 100,000 rows (views/dev/TableBenchView.tsx). */
  data_ms: number;
}

function plainTable(rows: number): string {
  const body: string[] = [];
  for (let i = 0; i < rows; i++) {
    body.push(`<tr><td>${1_900_000_000_000_000_000n + BigInt(i)}</td><td>${new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()}</td><td>Row ${i}: a synthetic post to measure scrolling</td><td>${(i * 7) % 101}</td><td>${(i * 13) % 1009}</td></tr>`);
  }
  return `<!doctype html><html><body><div id="scroll" style="height:600px;overflow:auto"><table>${body.join('')}</table></div></body></html>`;
}

const bench: Bench = {
  name: 'table: 100,000-row scroll in Chromium',
  unit: 'ms/frame (median)',
  higherIsBetter: false,
  target: 'p95 frame <= 16.7 ms while scrolling (work_p95_ms: the main thread\'s work a frame); ready < 1 s (issue 17)',
  baselineName: 'plain HTML table, same rows, not virtualised',
  async run(ctx) {
    const rows = 100_000;
    // The plain table takes about a minute to lay out 100,000 rows on 2 cores: quick mode gives it
    // 10,000 (still far more than the virtualised table keeps in the DOM).
    const baselineRows = ctx.quick ? 4_000 : rows;
    // 120 frames at least: with fewer, "p95" is the second-worst frame.
    const frames = ctx.quick ? 120 : 600;
    const runs = ctx.quick ? 2 : 3;
    const dataDir = mkdtempSync(join(tmpdir(), 'skein-bench-table-'));
    const skein = await startSkein(dataDir, ['--no-demo']);
    const browser = await launchChromium({ headful: HEADFUL });
    try {
      const deltas: number[] = [];
      const work: number[] = [];
      const ready: Ready[] = [];
      const wallReady: number[] = [];
      let rowsInDom = 0;
      for (let run = 0; run < runs; run++) {
        const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
        const page = await logIn(await context.newPage(), skein);
        await page.addInitScript(READY_PROBE);
        const t0 = Date.now();
        await page.goto(`${skein.url}/#/dev/table?rows=${rows}`);
        await page.waitForFunction(() => (globalThis as unknown as { __tableReady?: Partial<Ready> }).__tableReady?.ready_ms, null, { timeout: 120_000, polling: 50 });
        wallReady.push(Date.now() - t0);
        ready.push((await page.evaluate('window.__tableReady')) as Ready);
        const subject = await probe(browser, page, '[data-testid=table-body]', frames);
        deltas.push(...subject.deltas);
        work.push(...subject.work);
        rowsInDom = subject.rowsInDom;
        await context.close();
      }

      const plain = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      const t0 = Date.now();
      await plain.setContent(plainTable(baselineRows), { timeout: 180_000 });
      const baselineReadyMs = Date.now() - t0;
      const baseline = await probe(browser, plain, '#scroll', frames);
      await plain.close();
      // The floor: the same scroll of a box holding nothing but its height. Headless Chromium
      // draws in software and paces frames with a timer, so even this page misses some frames;
      // the table's p95 is read against it.
      const empty = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await empty.setContent('<!doctype html><html><body><div id="scroll" style="height:600px;overflow:auto"><div style="height:4000000px"></div></div></body></html>');
      const floor = await probe(browser, empty, '#scroll', frames);
      const readyMs = median(ready.map((r) => r.ready_ms));
      ctx.log(`virtualised: ${rowsInDom} rows in the DOM, ready in ${ready.map((r) => Math.round(r.ready_ms)).join(' / ')} ms (first rows painted at ${ready.map((r) => Math.round(r.painted_ms)).join(' / ')} ms, of which making the rows ${ready.map((r) => Math.round(r.data_ms)).join(' / ')} ms), p95 ${percentile(deltas, 95).toFixed(1)} ms (an empty scrolled box: ${percentile(floor.deltas, 95).toFixed(1)} ms), main-thread work a frame p50 ${percentile(work, 50).toFixed(1)} / p95 ${percentile(work, 95).toFixed(1)} / p99 ${percentile(work, 99).toFixed(1)} ms (empty box p95 ${percentile(floor.work, 95).toFixed(1)} ms), late frames ${(lateShare(deltas) * 100).toFixed(1)}% (empty box ${(lateShare(floor.deltas) * 100).toFixed(1)}%), ${HEADFUL ? 'headful' : 'headless'}; plain: ${baseline.rowsInDom} rows, ready in ${baselineReadyMs} ms`);
      return {
        subject: { median: median(deltas), values: deltas },
        baseline: { median: median(baseline.deltas), values: baseline.deltas },
        extra: {
          rows,
          baseline_rows: baselineRows,
          frames,
          runs,
          rows_in_dom: rowsInDom,
          baseline_rows_in_dom: baseline.rowsInDom,
          p95_ms: percentile(deltas, 95),
          p99_ms: percentile(deltas, 99),
          max_ms: Math.max(...deltas),
          baseline_p95_ms: percentile(baseline.deltas, 95),
          baseline_p99_ms: percentile(baseline.deltas, 99),
          floor_p95_ms: percentile(floor.deltas, 95),
          floor_p99_ms: percentile(floor.deltas, 99),
          work_p50_ms: percentile(work, 50),
          work_p95_ms: percentile(work, 95),
          work_p99_ms: percentile(work, 99),
          baseline_work_p95_ms: percentile(baseline.work, 95),
          floor_work_p95_ms: percentile(floor.work, 95),
          late_frames_pct: Math.round(lateShare(deltas) * 1000) / 10,
          floor_late_frames_pct: Math.round(lateShare(floor.deltas) * 1000) / 10,
          baseline_late_frames_pct: Math.round(lateShare(baseline.deltas) * 1000) / 10,
          window: HEADFUL ? 'headful (a real window)' : 'headless',
          ready_ms: readyMs,
          painted_ms: median(ready.map((r) => r.painted_ms)),
          data_ms: median(ready.map((r) => r.data_ms)),
          ready_wall_ms: median(wallReady),
          baseline_ready_ms: baselineReadyMs,
        },
      };
    } finally {
      await browser.close();
      await skein.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export default [bench];
