import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asTwitterDate, isoMicros, isoOffset, isoSecondsPart, twitterDate } from '../../src/main/engine/serialize/timestamps';

fc.configureGlobal({ seed: 20261122 });

// Table-driven: epoch microseconds -> the spec's three forms.
const cases: { us: bigint; micros: string; offset: string; twitter: string }[] = [
  { us: 1539202764000000n, micros: '2018-10-10T20:19:24.000000Z', offset: '2018-10-10T20:19:24+00:00', twitter: 'Wed Oct 10 20:19:24 +0000 2018' },
  { us: 1709658124123456n, micros: '2024-03-05T17:02:04.123456Z', offset: '2024-03-05T17:02:04+00:00', twitter: 'Tue Mar 05 17:02:04 +0000 2024' },
  { us: 1709658124999999n, micros: '2024-03-05T17:02:04.999999Z', offset: '2024-03-05T17:02:04+00:00', twitter: 'Tue Mar 05 17:02:04 +0000 2024' },
  { us: 0n, micros: '1970-01-01T00:00:00.000000Z', offset: '1970-01-01T00:00:00+00:00', twitter: 'Thu Jan 01 00:00:00 +0000 1970' },
  { us: -1n, micros: '1969-12-31T23:59:59.999999Z', offset: '1969-12-31T23:59:59+00:00', twitter: 'Wed Dec 31 23:59:59 +0000 1969' },
  { us: 951782400000001n, micros: '2000-02-29T00:00:00.000001Z', offset: '2000-02-29T00:00:00+00:00', twitter: 'Tue Feb 29 00:00:00 +0000 2000' },
];

describe('timestamp forms', () => {
  it('writes the date and time of any second as Date does: every day boundary, leap days, years 1970 to 9999 and beyond', () => {
    const reference = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
    const edges = [0, 59, 60, 3_599, 3_600, 86_399, 86_400, 951_782_399, 951_782_400, 4_107_542_399, 4_107_542_400, 253_402_300_799, 253_402_300_800, -1, -86_401];
    for (const s of edges) expect(isoSecondsPart(s)).toBe(reference(s));
    // Every day from 1970 to 2500 at its last second (month and year ends, 1900/2000/2100 rules).
    for (let day = 0; day < 194_000; day++) {
      const s = day * 86_400 + 86_399;
      if (isoSecondsPart(s) !== reference(s)) expect(isoSecondsPart(s)).toBe(reference(s));
    }
    fc.assert(fc.property(fc.bigInt({ min: -62_135_596_800n, max: 300_000_000_000n }).map(Number), (s) => {
      expect(isoSecondsPart(s)).toBe(reference(s));
    }), { numRuns: 5_000 });
  });

  it.each(cases)('$micros', ({ us, micros, offset, twitter }) => {
    expect(isoMicros(us)).toBe(micros);
    expect(isoMicros(Number(us))).toBe(micros);
    expect(isoOffset(us)).toBe(offset);
    expect(twitterDate(Math.floor(Number(us) / 1000))).toBe(twitter);
  });

  it('agrees with exact BigInt arithmetic at every second boundary (no double rounding)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -62135596800n, max: 9007199254n }), fc.constantFrom(0n, 1n, 999999n, 999998n, 500000n), (s, f) => {
        const us = s * 1_000_000n + f;
        const fraction = isoMicros(us).slice(20, 26);
        expect(BigInt(fraction)).toBe(((us % 1_000_000n) + 1_000_000n) % 1_000_000n);
        expect(BigInt(Math.floor(Date.parse(isoMicros(us)) / 1000)) * 1_000_000n + BigInt(fraction)).toBe(us);
      }),
    );
  });

  it('the microsecond form reads back to the same instant (to the millisecond in Date)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 4102444800000000n }), (us) => {
        const s = isoMicros(us);
        expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
        expect(BigInt(Date.parse(s)) * 1000n + BigInt(s.slice(23, 26))).toBe(us);
      }),
    );
  });

  it('brings a stored creator created_at to the Twitter form, keeping what it cannot read', () => {
    expect(asTwitterDate('Wed Oct 10 20:19:24 +0000 2018')).toBe('Wed Oct 10 20:19:24 +0000 2018');
    expect(asTwitterDate('2018-10-10T20:19:24.000Z')).toBe('Wed Oct 10 20:19:24 +0000 2018');
    expect(asTwitterDate(1539202764000)).toBe('Wed Oct 10 20:19:24 +0000 2018');
    expect(asTwitterDate('yesterday')).toBe('yesterday');
  });
});
