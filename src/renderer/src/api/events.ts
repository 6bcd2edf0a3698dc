import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ImportProgress } from '../../../shared/contract';
import { useUi } from '../stores/ui';
import { importToastKey } from './import';
import { importCounts, importCountsText } from '../views/settings/import-counts';
import { bridge } from './transport';

/**
 * Engine events -> cache updates. Progress of a job refreshes the job list (at most every 500 ms:
 * a million-row export reports often); the end of a job refreshes jobs, exports, credits and says
 * so; webhook deliveries and inbox posts refresh their tables; import progress is kept in the
 * query cache under ['imports'] (engine data, not UI state).
 */
export function useEngineEvents(): void {
  const client = useQueryClient();
  const toast = useUi((s) => s.toast);
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | null = null;
    const refreshJobs = () => {
      pending ??= setTimeout(() => {
        pending = null;
        // A job that pauses (a full disk) or resumes changes the unfinished files in Exports.
        for (const key of ['jobs.list', 'exports.partials']) void client.invalidateQueries({ queryKey: [key] });
      }, 500);
    };
    const offs = [
      bridge.on('job.progress', refreshJobs),
      bridge.on('job.finished', (e) => {
        for (const key of ['jobs.list', 'jobs.get', 'exports.list', 'exports.partials', 'credits.ledger', 'users.list']) void client.invalidateQueries({ queryKey: [key] });
        if (e.status === 'success') toast(`Job ${e.job_id} finished.`, 'ok');
        else if (e.cancelled) toast(`Job ${e.job_id} cancelled. Its hold is released; what it collected stays charged.`, 'info');
        else toast(`Job ${e.job_id} failed: ${e.message ?? 'unknown error'}`, 'error');
      }),
      bridge.on('webhook.delivery', () => void client.invalidateQueries({ queryKey: ['webhooks.deliveries'] })),
      bridge.on('inbox.received', () => void client.invalidateQueries({ queryKey: ['inbox.get'] })),
      bridge.on('app.navigate', (e) => {
        if (/^\/[\w/-]*$/.test(e.path)) window.location.hash = e.path;
      }),
      bridge.on('import.progress', (p) => {
        client.setQueryData<ImportProgress[]>(['imports'], (old = []) => {
          const rest = old.filter((o) => o.import_id !== p.import_id);
          return [...rest, p];
        });
        if (p.done) {
          void client.invalidateQueries({ queryKey: ['corpus.summary'] });
          // Replaces the import's "Importing…" notice, which stays until now (import.ts).
          const c = importCounts(p);
          const refused = c.refused + c.filesNotImported;
          if (p.error) toast(`Import failed: ${p.error}`, 'error', { key: importToastKey(p.import_id) });
          else toast(`Imported ${p.file}: ${importCountsText(p, ', ')}${refused ? ' (see Settings > Data for why)' : ''}.`, refused ? 'info' : 'ok', { key: importToastKey(p.import_id) });
        }
      }),
    ];
    return () => {
      if (pending) clearTimeout(pending);
      offs.forEach((off) => off());
    };
  }, [client, toast]);
}
