import { useState } from 'react';
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
  const [reading, setReading] = useState<string | null>(null);
  const importFiles = async (files: File[]) => {
    if (!files.length) return;
    try {
      const paths: string[] = [];
      for (const file of files) {
        setReading(file.name);
        paths.push(await bridge.pathForFile(file));
      }
      start.mutate({ paths }, { onSuccess: () => toast(`Importing ${files.length} file${files.length > 1 ? 's' : ''}…`) });
    } catch (err) {
      toast(`Could not read the file: ${(err as Error).message}`, 'error');
    } finally {
      setReading(null);
    }
  };
  return { importFiles, reading, error: start.error };
}
