import { create } from 'zustand';

// Whether the engine answers (headless mode: the `skein serve` behind the page). The HTTP bridge
// marks it down when a call or the event stream cannot reach the server and up again once it has
// re-established the session; the layout shows one banner meanwhile, and a reconnection refreshes
// every view (what happened while it was away arrives no other way). The desktop app never marks it.
interface ConnectionState {
  down: boolean;
  /** When it went away (ms), for the banner. */
  down_since_ms: number | null;
  /** Bumped at every reconnection: App invalidates its queries on a change. */
  reconnections: number;
}

export const useConnection = create<ConnectionState>(() => ({ down: false, down_since_ms: null, reconnections: 0 }));

export function markDown(): void {
  if (!useConnection.getState().down) useConnection.setState({ down: true, down_since_ms: Date.now() });
}

export function markUp(): void {
  const state = useConnection.getState();
  if (state.down) useConnection.setState({ down: false, down_since_ms: null, reconnections: state.reconnections + 1 });
}
