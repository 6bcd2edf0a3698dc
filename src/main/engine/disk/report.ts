import { largestFiles } from './largest';
import { freeSpaceAt, mbText } from './space';

/**
 * What a start that a full disk stopped says instead of "database or disk is full" (issue 13):
 * the data dir, the free space on its disk, and the largest files there with what each is, so the
 * analyst knows what to delete. A staged file under exports/.partial may be deleted: a job that
 * ended no longer needs it, and a job waiting to resume starts its file again from row 0 without
 * charging a row twice (jobs/queue/restart.ts).
 */
export function diskFullReport(dataDir: string, err: unknown): string {
  const { freeBytes, mount } = freeSpaceAt(dataDir);
  const files = largestFiles(dataDir, 5);
  const width = Math.max(0, ...files.map((f) => mbText(f.bytes).length));
  const lines = [
    `The disk holding the data dir is full (${(err as Error)?.message ?? String(err)}).`,
    `  Data dir: ${dataDir}`,
    `  Free: ${mbText(freeBytes)} on ${mount}`,
  ];
  if (files.length) {
    lines.push('  Largest files in the data dir:');
    for (const f of files) {
      const what = f.partial ? "  (a job's unfinished export: deleting it is safe; a job still waiting restarts its file from row 0)" : '';
      lines.push(`    ${mbText(f.bytes).padStart(width)}  ${f.path}${what}`);
    }
  }
  lines.push(`Free space on ${mount} and start Skein again.`);
  return lines.join('\n');
}
