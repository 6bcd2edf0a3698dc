// Freshness durations as people write them ("15 min", "1 d", "1 h 30 min") <-> milliseconds, for
// Settings > Sources. The engine keeps milliseconds (upstream_config.fresh_*_ms).

const UNITS: [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
];

const NAMES: Record<string, number> = {
  s: 1_000, sec: 1_000, secs: 1_000, second: 1_000, seconds: 1_000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hrs: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  w: 604_800_000, week: 604_800_000, weeks: 604_800_000,
};

/** 900000 -> "15 min", 5400000 -> "1 h 30 min", 0 -> "0 s". */
export function formatDuration(ms: number): string {
  if (ms <= 0) return '0 s';
  const parts: string[] = [];
  let left = ms;
  for (const [unit, size] of UNITS) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(`${n} ${unit}`);
    left -= n * size;
  }
  if (left > 0) parts.push(`${left} ms`);
  return parts.join(' ');
}

/** "15 min", "1h30m", "2 days" -> ms; null when it is not a duration (a bare number has no unit, so it is refused). */
export function parseDuration(text: string): number | null {
  const s = text.trim().toLowerCase();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*/g;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m.index !== consumed) return null;
    const size = NAMES[m[2]!];
    if (size === undefined) return null;
    total += Number(m[1]) * size;
    consumed = re.lastIndex;
  }
  if (consumed === 0 || consumed !== s.length) return null;
  return Math.round(total);
}
