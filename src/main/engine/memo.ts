/**
 * A pure function of a string, remembered: values that repeat on every request (a key's hash, an
 * object key's quoted form) are computed once. At most `max` entries: when full the map starts
 * over, so inputs a client chooses (random keys, imported object keys) cannot grow it.
 */
export function memoized<T>(max: number, compute: (input: string) => T): (input: string) => T {
  const seen = new Map<string, T>();
  return (input) => {
    let value = seen.get(input);
    if (value === undefined) {
      if (seen.size >= max) seen.clear();
      seen.set(input, (value = compute(input)));
    }
    return value;
  };
}
