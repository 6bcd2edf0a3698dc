import { type BrowserWindow, Notification } from 'electron';
import type { EventHub } from '../engine/handlers/event-hub';

/** A system notification when a job ends, so a long collection can run while the analyst is elsewhere. */
export function notifyJobEnds(events: EventHub, win: () => BrowserWindow | null): () => void {
  return events.subscribe((name, payload) => {
    if (name !== 'job.finished' || !Notification.isSupported()) return;
    const e = payload as { job_id: number; status: string; cancelled: boolean; message: string | null };
    // The analyst cancelled it here: no notification needed.
    if (e.cancelled) return;
    const n = new Notification({
      title: e.status === 'success' ? `Job ${e.job_id} finished` : `Job ${e.job_id} failed`,
      body: e.status === 'success' ? 'Its data file is in Exports.' : (e.message ?? 'See Jobs for the reason.'),
    });
    n.on('click', () => {
      const w = win();
      if (!w) return;
      if (w.isMinimized()) w.restore();
      w.focus();
      events.emit('app.navigate', { path: e.status === 'success' ? '/exports' : '/jobs' });
    });
    n.show();
  });
}
