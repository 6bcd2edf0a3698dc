// What a frame costs the page, read from a Chromium trace: the renderer main thread's busy time
// between two frames. The table bench's frame intervals (requestAnimationFrame deltas) are paced
// by the browser: headless Chromium draws in software on a timer, and an empty box scrolled the
// same way has an interval p95 of 16.9-19.2 ms on these 2-core machines. The main thread's work is
// what the app puts into each frame (scroll handling, React, style, layout, paint), whatever paces
// it: at most 16.7 ms of it leaves a frame for every refresh at 60 Hz.

/** The trace categories that hold the main thread's tasks and the page's performance marks. */
export const FRAME_TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'blink.user_timing', '__metadata'];

/** The mark the probe sets at the start of each frame (in its requestAnimationFrame callback). */
export const FRAME_MARK = 'skein-frame';

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  /** Microseconds. */
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
}

// A task is recorded twice, nested (`ThreadControllerImpl::RunTask` in "toplevel" around
// `RunTask` in devtools.timeline), and either may be missing: the union of both is the busy time.
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/**
 * Milliseconds the thread that set the marks was busy in each interval between two consecutive
 * marks named `mark` (one fewer than the marks). Tasks that overlap (nested, or recorded under
 * both names) count once, and a task across a frame's edge counts in each frame for its part.
 */
export function mainThreadWorkPerFrame(events: TraceEvent[], mark = FRAME_MARK): number[] {
  const marks = events.filter((e) => e.name === mark && e.cat.includes('user_timing'));
  if (marks.length < 2) throw new Error(`the trace holds ${marks.length} "${mark}" marks: was ${FRAME_TRACE_CATEGORIES.join(', ')} traced?`);
  const { pid, tid } = marks[0]!;
  const edges = marks.map((m) => m.ts).sort((a, b) => a - b);
  const tasks = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && TASKS.has(e.name) && (e.dur ?? 0) > 0)
    .map((e) => [e.ts, e.ts + e.dur!] as const)
    .sort((a, b) => a[0] - b[0]);
  const work: number[] = [];
  let first = 0;
  for (let i = 1; i < edges.length; i++) {
    const from = edges[i - 1]!;
    const to = edges[i]!;
    let busy = 0;
    let covered = from;
    // Sorted by start: the tasks in front that ended before this frame never matter again (the
    // front stops at a task still running, so a long one is never skipped).
    while (first < tasks.length && tasks[first]![1] <= from) first++;
    for (let t = first; t < tasks.length && tasks[t]![0] < to; t++) {
      const start = Math.max(tasks[t]![0], covered);
      const end = Math.min(tasks[t]![1], to);
      if (end > start) {
        busy += end - start;
        covered = end;
      }
    }
    work.push(busy / 1000);
  }
  return work;
}
