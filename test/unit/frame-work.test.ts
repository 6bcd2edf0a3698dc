import { describe, expect, it } from 'vitest';
import { FRAME_MARK, mainThreadWorkPerFrame, type TraceEvent } from '../../bench/frame-work';

// The table bench's frame cost: the main thread's busy time between two frame marks, read from a
// Chromium trace (bench/frame-work.ts). Times below in microseconds, as a trace has them.

const MAIN = { pid: 1, tid: 7 };
const mark = (ts: number, at = MAIN): TraceEvent => ({ name: FRAME_MARK, cat: 'blink.user_timing', ph: 'R', ts, ...at });
const task = (ts: number, dur: number, name = 'ThreadControllerImpl::RunTask', at = MAIN): TraceEvent => ({ name, cat: 'toplevel', ph: 'X', ts, dur, ...at });

describe('main-thread work per frame', () => {
  it('sums the tasks of each frame, in milliseconds', () => {
    const work = mainThreadWorkPerFrame([mark(0), task(1_000, 2_000), task(5_000, 1_000), mark(16_667), task(17_000, 8_000), mark(33_333)]);
    expect(work).toEqual([3, 8]);
  });

  it('counts a task recorded twice, nested, once', () => {
    const work = mainThreadWorkPerFrame([mark(0), task(1_000, 4_000), task(1_100, 3_800, 'RunTask'), task(6_000, 1_000, 'RunTask'), mark(16_667)]);
    expect(work).toEqual([5]);
  });

  it('splits a task across a frame edge between the two frames', () => {
    const work = mainThreadWorkPerFrame([mark(0), task(10_000, 20_000), task(12_000, 1_000, 'RunTask'), mark(16_000), task(31_000, 1_000), mark(32_000)]);
    expect(work).toEqual([6, 15]);
  });

  it('keeps a long task that started before shorter ones that ended', () => {
    const work = mainThreadWorkPerFrame([task(0, 50_000), task(1_000, 100), mark(10_000), mark(20_000), mark(30_000)]);
    expect(work).toEqual([10, 10]);
  });

  it('ignores other threads and other events', () => {
    const raster = { pid: 1, tid: 9 };
    const work = mainThreadWorkPerFrame([
      mark(0),
      task(1_000, 9_000, 'RunTask', raster),
      task(1_000, 9_000, 'RunTask', { pid: 2, tid: 7 }),
      { name: 'Layout', cat: 'devtools.timeline', ph: 'X', ts: 2_000, dur: 5_000, ...MAIN },
      task(3_000, 500),
      mark(16_000),
    ]);
    expect(work).toEqual([0.5]);
  });

  it('orders the marks by time, as a trace need not', () => {
    expect(mainThreadWorkPerFrame([mark(20_000), task(12_000, 2_000), mark(10_000), mark(0)])).toEqual([0, 2]);
  });

  it('says what is wrong with a trace without marks', () => {
    expect(() => mainThreadWorkPerFrame([task(0, 1_000)])).toThrow(/0 "skein-frame" marks: was .*blink\.user_timing/);
  });
});
