// A 100,000-row table in real Chromium: the app's virtualised DataTable (#/dev/table) against a
// plain, non-virtualised HTML table of the same rows. Reported, never asserted: rows in the DOM,
// time to first paint of the table, and frame times (requestAnimationFrame deltas) while the
// table is scrolled programmatically, one step per frame.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, logIn } from '../test/helpers/browser';
import { startSkein } from '../test/helpers/skein-process';
import { type Bench, median, percentile } from './lib';

// Runs in the page: scrolls `selector` by `stepPx` once per frame for `frames` frames and returns
// the frame deltas and how many rows the DOM holds at the end.
const SCROLL_PROBE = `async ({ selector, frames, stepPx }) => {
  const el = document.querySelector(selector);
  const deltas = [];
  let last = performance.now();
  for (let i = 0; i < frames; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    deltas.push(now - last);
    last = now;
    el.scrollTop += stepPx;
  }
  return { deltas, rowsInDom: el.querySelectorAll('[role=row], tr').length, scrollTop: el.scrollTop };
}`;

interface Probe {
  deltas: number[];
  rowsInDom: number;
  scrollTop: number;
}

async function probe(page: Page, selector: string, frames: number): Promise<Probe> {
  return (await page.evaluate(`(${SCROLL_PROBE})(${JSON.stringify({ selector, frames, stepPx: 240 })})`)) as Probe;
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
  target: 'virtualised: rows in the DOM stay few; frames near 16.7 ms',
  baselineName: 'plain HTML table, same rows, not virtualised',
  async run(ctx) {
    const rows = 100_000;
    // The plain table takes about a minute to lay out 100,000 rows on 2 cores: quick mode gives it
    // 10,000 (still far more than the virtualised table keeps in the DOM).
    const baselineRows = ctx.quick ? 4_000 : rows;
    const frames = ctx.quick ? 40 : 600;
    const dataDir = mkdtempSync(join(tmpdir(), 'skein-bench-table-'));
    const skein = await startSkein(dataDir, ['--no-demo']);
    const browser = await launchChromium();
    try {
      const page = await logIn(await browser.newPage({ viewport: { width: 1360, height: 900 } }), skein);
      let t0 = Date.now();
      await page.goto(`${skein.url}/#/dev/table?rows=${rows}`);
      await page.locator('[aria-label="Benchmark rows"] .body-row').first().waitFor();
      const subjectReadyMs = Date.now() - t0;
      const subject = await probe(page, '[data-testid=table-body]', frames);

      const plain = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      t0 = Date.now();
      await plain.setContent(plainTable(baselineRows), { timeout: 180_000 });
      const baselineReadyMs = Date.now() - t0;
      const baseline = await probe(plain, '#scroll', frames);
      ctx.log(`virtualised: ${subject.rowsInDom} rows in the DOM, ready in ${subjectReadyMs} ms; plain: ${baseline.rowsInDom} rows, ready in ${baselineReadyMs} ms`);
      return {
        subject: { median: median(subject.deltas), values: subject.deltas },
        baseline: { median: median(baseline.deltas), values: baseline.deltas },
        extra: {
          rows,
          baseline_rows: baselineRows,
          frames,
          rows_in_dom: subject.rowsInDom,
          baseline_rows_in_dom: baseline.rowsInDom,
          p95_ms: percentile(subject.deltas, 95),
          p99_ms: percentile(subject.deltas, 99),
          max_ms: Math.max(...subject.deltas),
          baseline_p99_ms: percentile(baseline.deltas, 99),
          ready_ms: subjectReadyMs,
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
