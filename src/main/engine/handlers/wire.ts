// Values cross IPC and HTTP as JSON-safe data: a BigInt id becomes its decimal digits (a string),
// never a JS number, so 19-digit ids arrive exact on both transports.
const MAX_DEPTH = 64;

export function jsonSafe<T = unknown>(value: unknown, depth = 0): T {
  if (typeof value === 'bigint') return value.toString() as T;
  if (value === null || typeof value !== 'object') return value as T;
  if (depth > MAX_DEPTH) throw new RangeError('value nested too deeply');
  if (Array.isArray(value)) return value.map((v) => jsonSafe(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = jsonSafe(v, depth + 1);
  return out as T;
}
