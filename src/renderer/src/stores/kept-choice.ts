// A per-machine view preference kept in localStorage: one of a few known values. A value not among
// them (an older build's, or edited by hand) reads as the default; storage that refuses (private
// mode, a locked-down profile) reads as the default and keeps nothing, while the choice still holds
// for this session.
export interface KeptChoice<T extends string> {
  read(): T;
  write(value: T): void;
}

export function keptChoice<T extends string>(storageKey: string, values: readonly T[], fallback: T): KeptChoice<T> {
  return {
    read() {
      try {
        const value = window.localStorage.getItem(storageKey);
        return values.includes(value as T) ? (value as T) : fallback;
      } catch {
        return fallback;
      }
    },
    write(value) {
      try {
        window.localStorage.setItem(storageKey, value);
      } catch {
        // Not kept, but in force for this session.
      }
    },
  };
}
