import { create } from 'zustand';
import { setDisplayZone, type DisplayZone } from '../format';
import { keptChoice } from './kept-choice';

// Which clock the app's dates are shown in: the computer's own zone (the default: "when did this
// happen for me") or UTC, the zone of every query (since:, until:) and export. Both show the zone's
// name next to the time, so a post at 23:30 UTC is never mistaken for one of the next local day.
// A per-machine preference in localStorage, like the image setting.
const kept = keptChoice<DisplayZone>('skein.timeZone', ['local', 'utc'], 'local');

interface TimeZoneState {
  zone: DisplayZone;
  setZone(zone: DisplayZone): void;
}

const initial = kept.read();
setDisplayZone(initial);

export const useTimeZone = create<TimeZoneState>((set) => ({
  zone: initial,
  setZone(zone) {
    kept.write(zone);
    setDisplayZone(zone);
    set({ zone });
  },
}));

/** The computer's zone as the browser names it ("Europe/Berlin"), for the setting's label. */
export const localZoneName = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
