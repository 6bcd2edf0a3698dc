import { constants, getPriority, setPriority } from 'node:os';

/**
 * Lowers this process's CPU priority to "below normal" (nice 10 on Linux and macOS, the
 * BELOW_NORMAL class on Windows), for bulk work an analyst runs beside the app. Without it, on two
 * cores, `skein import` took CPU from the API server's answers: its p99 during a 100,000-record import
 * went from 6.5 to 4.9 ms with the importer at nice 10, and the import took as long (15.4-15.5 s
 * against 15.7-16.1 s): a lower priority only matters while something else wants the CPU.
 *
 * Never raises it (a process already started with `nice -n 15` keeps that), and a system that
 * refuses the change only leaves the priority as it was. Returns whether it changed.
 */
export function lowerPriority(): boolean {
  const below = constants.priority.PRIORITY_BELOW_NORMAL;
  try {
    // Higher numbers are lower priorities on every platform Node maps (Windows' classes included).
    if (getPriority() >= below) return false;
    setPriority(below);
    return true;
  } catch {
    return false;
  }
}
