import type { ImportProgress } from '../../../../shared/contract';
import { fmtInt } from '../../format';

/**
 * A finished import's counts as its file rows show them. The import's own `skipped` counts every
 * record left out, problems included, so "3 skipped" stood above file rows whose Skipped column
 * added up to 1 and whose Refused column held the other 2: the summary and the notice now say both,
 * from the same rows. An import that failed has no file rows, and says what it counted.
 */
export function importCounts(p: ImportProgress): { added: number; updated: number; skipped: number; refused: number; filesNotImported: number } {
  if (p.files.length === 0) return { added: p.added, updated: p.updated, skipped: p.skipped, refused: 0, filesNotImported: 0 };
  const sum = (pick: (f: ImportProgress['files'][number]) => number) => p.files.reduce((n, f) => n + pick(f), 0);
  return { added: p.added, updated: p.updated, skipped: sum((f) => f.skipped), refused: sum((f) => f.refused), filesNotImported: sum((f) => (f.imported ? 0 : 1)) };
}

/** "3 added, 0 updated, 1 skipped, 2 refused" (the separator differs between the report and the notice). */
export function importCountsText(p: ImportProgress, separator: string): string {
  const c = importCounts(p);
  const parts = [`${fmtInt(c.added)} added`, `${fmtInt(c.updated)} updated`, `${fmtInt(c.skipped)} skipped`];
  if (c.refused) parts.push(`${fmtInt(c.refused)} refused`);
  if (c.filesNotImported) parts.push(`${fmtInt(c.filesNotImported)} file${c.filesNotImported > 1 ? 's' : ''} not imported`);
  return parts.join(separator);
}
