import type { EventName, Events } from '../../../shared/contract';

type Listener = (name: EventName, payload: Events[EventName]) => void;

// A cap on subscribers: each SSE connection or window adds one; more than this means a leak.
const MAX_LISTENERS = 64;

/**
 * The engine side of the contract's event map: handlers and watchers emit, the transports (IPC to
 * each window, SSE to each headless page) subscribe to every event and forward it.
 */
export class EventHub {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    if (this.listeners.size >= MAX_LISTENERS) throw new Error(`Too many event subscribers (${MAX_LISTENERS}).`);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  emit<E extends EventName>(name: E, payload: Events[E]): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(name, payload);
      } catch {
        // One broken subscriber (a closed window, a dropped socket) must not stop the others.
      }
    }
  }
}
