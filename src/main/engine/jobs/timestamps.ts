// The spec's timeline/detail timestamp form, YYYY-MM-DDTHH:MM:SS.ffffffZ, from integer microseconds.
export function isoMicros(us: bigint): string {
  const ms = us / 1000n;
  const micros = ((us % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  return `${base}.${micros.toString().padStart(6, '0')}Z`;
}
