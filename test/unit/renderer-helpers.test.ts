import { describe, expect, it } from 'vitest';
import type { JobRow } from '../../src/shared/contract';
import { indentJson } from '../../src/renderer/src/components/indent-json';
import { fmtBytes, fmtDuration, toMs } from '../../src/renderer/src/format';
import { rateAndEta } from '../../src/renderer/src/views/jobs/rate';

// The renderer's pure helpers (no DOM): what the views show must be exact.
describe('indentJson', () => {
  it('re-indents without touching literals, so 19-digit ids stay exact', () => {
    const text = '{"id":2086661298656931840,"s":"a,b:{c}","e":[],"o":{},"n":[1,{"x":"\\"q\\""}]}';
    const out = indentJson(text);
    expect(out).toContain('"id": 2086661298656931840,');
    expect(out).toContain('"s": "a,b:{c}"');
    expect(out).toContain('"e": []');
    expect(out.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
  });
});

describe('toMs', () => {
  it.each([
    ['2026-08-10T03:49:56.549180Z', Date.UTC(2026, 7, 10, 3, 49, 56, 549)],
    ['2026-08-10T03:49:56+00:00', Date.UTC(2026, 7, 10, 3, 49, 56)],
    ['Wed Oct 10 20:19:24 +0000 2018', Date.UTC(2018, 9, 10, 20, 19, 24)],
    ['1754797796549', 1754797796549],
    [1754797796549, 1754797796549],
    [null, null],
    ['not a time', null],
  ])('%s', (value, expected) => expect(toMs(value)).toBe(expected));
});

describe('formats', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KiB'],
    [18 * 1024, '18 KiB'],
    [5 * 1024 ** 3, '5.0 GiB'],
  ])('fmtBytes(%i) = %s', (n, s) => expect(fmtBytes(n)).toBe(s));
  it.each([
    [0, '0 s'],
    [59_400, '59 s'],
    [61_000, '1 min 1 s'],
    [3_726_000, '1 h 2 min'],
  ])('fmtDuration(%i) = %s', (n, s) => expect(fmtDuration(n)).toBe(s));
});

describe('rateAndEta', () => {
  const job = (over: Partial<JobRow>): JobRow => ({
    job_id: 1, kind: 'search', user_name: 'app', subject_screen_name: null, params: {}, status: 'processing', cancelled: false, progress: 0, progress_total: 1000, attempts: 1,
    message: null, credits_used: 0, created_ms: 0, started_ms: 0, finished_ms: null, result: null, rows_recorded: true, ...over,
  });
  it('has no rate before the first rows', () => expect(rateAndEta(job({ progress: 0 }), 10_000)).toEqual({ rate: null, etaMs: null }));
  it('gives rows per second and the time left while running', () => {
    expect(rateAndEta(job({ progress: 250, started_ms: 0 }), 5_000)).toEqual({ rate: 50, etaMs: 15_000 });
  });
  it('uses the finish time and gives no ETA once finished', () => {
    expect(rateAndEta(job({ status: 'success', progress: 1000, started_ms: 0, finished_ms: 4_000 }), 99_000)).toEqual({ rate: 250, etaMs: null });
  });
});
