import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ImportProgress } from '../../../shared/contract';
import { useImportEncoding } from '../stores/import-encoding';
import { useUi } from '../stores/ui';
import { useSkeinMutation } from './hooks';
import { bridge } from './transport';

/**
 * Importing dropped or picked files: each File becomes a path the engine can read (the desktop
 * app: the file's own path; headless: uploaded into the data dir), then one import starts;
 * its progress arrives as events.
 */
export function useImportFiles() {
  const start = useSkeinMutation('data.import', []);
  const toast = useUi((s) => s.toast);
  const client = useQueryClient();
  const [reading, setReading] = useState<string | null>(null);
  const importFiles = async (files: File[]) => {
    if (!files.length) return;
    try {
      const paths: string[] = [];
      for (const file of files) {
        setReading(file.name);
        paths.push(await bridge.pathForFile(file));
      }
      start.mutate(
        { paths, encoding: useImportEncoding.getState().encoding },
        {
          // Stays until the import's end replaces it (events.ts, by the same key); a small import
          // may end before this answer arrives, and then there is nothing to announce.
          onSuccess: ({ import_id }) => {
            const ended = client.getQueryData<ImportProgress[]>(['imports'])?.some((p) => p.import_id === import_id && p.done);
            if (!ended) toast(`Importing ${files.length} file${files.length > 1 ? 's' : ''}…`, 'info', { key: importToastKey(import_id), sticky: true });
          },
        },
      );
    } catch (err) {
      toast(`Could not read the file: ${(err as Error).message}`, 'error');
    } finally {
      setReading(null);
    }
  };
  return { importFiles, reading, error: start.error };
}

/** The key of an import's notice: "Importing…" while it runs, its result once it ends. */
export const importToastKey = (importId: string) => `import:${importId}`;
