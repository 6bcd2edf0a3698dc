import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/renderer/src/views/settings/durations';

// Settings > Sources shows freshness as people write it and sends milliseconds to the engine.
describe('freshness durations', () => {
  it('writes the engine defaults as people read them, and reads them back to the same ms', () => {
    const cases: [number, string][] = [
      [900_000, '15 min'], [86_400_000, '1 d'], [604_800_000, '7 d'], [3_600_000, '1 h'], [5_400_000, '1 h 30 min'], [0, '0 s'], [90_000, '1 min 30 s'],
    ];
    for (const [ms, text] of cases) {
      expect(formatDuration(ms)).toBe(text);
      expect(parseDuration(text)).toBe(ms);
    }
  });

  it('reads the usual spellings, and refuses a bare number or an unknown unit (null)', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration(' 2 days ')).toBe(172_800_000);
    expect(parseDuration('1 week')).toBe(604_800_000);
    expect(parseDuration('0.5 h')).toBe(1_800_000);
    expect(parseDuration('0')).toBe(0);
    for (const bad of ['', '15', 'soon', '5 fortnights', '1 h and 5 min', 'h 5']) expect(parseDuration(bad), bad).toBeNull();
  });
});
