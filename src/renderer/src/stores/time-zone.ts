import { create } from 'zustand';
import { setDisplayZone, type DisplayZone } from '../format';

// Which clock the app's dates are shown in: the computer's own zone (the default: "when did this
// happen for me") or UTC, the zone of every query (since:, until:) and export. Both show the zone's
// name next to the time, so a post at 23:30 UTC is never mistaken for one of the next local day.
// A per-machine preference in localStorage, like the image setting.
const STORAGE_KEY = 'skein.timeZone';

function stored(): DisplayZone {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'utc' ? 'utc' : 'local';
  } catch {
    return 'local';
  }
}

interface TimeZoneState {
  zone: DisplayZone;
  setZone(zone: DisplayZone): void;
}

const initial = stored();
setDisplayZone(initial);

export const useTimeZone = create<TimeZoneState>((set) => ({
  zone: initial,
  setZone(zone) {
    try {
      window.localStorage.setItem(STORAGE_KEY, zone);
    } catch {
      // Not kept, but in force for this session.
    }
    setDisplayZone(zone);
    set({ zone });
  },
}));

/** The computer's zone as the browser names it ("Europe/Berlin"), for the setting's label. */
export const localZoneName = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
