// What an import did, for the CLI's final lines and the app's import screen: counts of added,
// updated and skipped records, skipped ones grouped by reason, and the first problems with file
// and line so the analyst can open the file at the right place.

export interface ImportProblem {
  file: string;
  /** 1-based line where the record starts (0 when the container has no lines, e.g. a zip entry). */
  line: number;
  message: string;
}

/**
 * One file's own counts (issue 15: the app's report has a row per file), given to
 * ImportOptions.onFileDone once the file was read to its end; a file refused whole ("not
 * imported: ...") has none.
 */
export interface FileCounts {
  added: number;
  updated: number;
  skipped: number;
  /** Skipped ones that are problems (also listed in `problems` with their line). */
  refused: number;
  /** reason -> count, as skippedReasons but for this file. */
  reasons: Record<string, number>;
}

export interface ImportReport {
  files: { file: string; format: string; records: number }[];
  added: number;
  updated: number;
  skipped: number;
  /** reason -> count; "unchanged" (already in the corpus) is the reason idempotent re-imports give. */
  skippedReasons: Record<string, number>;
  /**
   * reason -> count of the records among those that are problems (`problem`: malformed, invalid,
   * listed with their line). `skipped` and `skippedReasons` count them too, as they always did, so
   * scripts reading them are unchanged; the lines a person reads say "refused" for these.
   */
  problemReasons: Record<string, number>;
  /** The first MAX_PROBLEMS problems; `problemCount` counts them all. */
  problems: ImportProblem[];
  problemCount: number;
}

export const MAX_PROBLEMS = 200; // a broken 10 GB file must not build a 10 GB report

export const REASON_UNCHANGED = 'unchanged: already in the corpus (same or newer copy)';

export function emptyReport(): ImportReport {
  return { files: [], added: 0, updated: 0, skipped: 0, skippedReasons: {}, problemReasons: {}, problems: [], problemCount: 0 };
}

export function skip(report: ImportReport, reason: string): void {
  report.skipped++;
  report.skippedReasons[reason] = (report.skippedReasons[reason] ?? 0) + 1;
}

/** A record that could not be imported: counted under `reason` and listed with file and line. */
export function problem(report: ImportReport, reason: string, p: ImportProblem): void {
  skip(report, reason);
  report.problemReasons[reason] = (report.problemReasons[reason] ?? 0) + 1;
  report.problemCount++;
  if (report.problems.length < MAX_PROBLEMS) report.problems.push(p);
}

/** What the report's totals are now, to tell one file's share once it is read (fileCounts). */
export function countsNow(report: ImportReport): FileCounts {
  return { added: report.added, updated: report.updated, skipped: report.skipped, refused: report.problemCount, reasons: { ...report.skippedReasons } };
}

/** The counts added since `before`: one file's, when taken around the file's last batch. */
export function fileCounts(report: ImportReport, before: FileCounts): FileCounts {
  const now = countsNow(report);
  const reasons: Record<string, number> = {};
  for (const [reason, n] of Object.entries(now.reasons)) if (n > (before.reasons[reason] ?? 0)) reasons[reason] = n - (before.reasons[reason] ?? 0);
  return { added: now.added - before.added, updated: now.updated - before.updated, skipped: now.skipped - before.skipped, refused: now.refused - before.refused, reasons };
}

/**
 * The CLI's lines. Records left out as problems are "refused" apart from those "skipped" (already in
 * the corpus, not a post...), as the app's report has them in two columns: "3 skipped" over reasons
 * that were mostly malformed lines read as if nothing were wrong.
 */
export function formatReport(report: ImportReport): string {
  const refused = report.problemCount;
  const lines = [
    `Imported ${report.files.length} file${report.files.length === 1 ? '' : 's'}: ${report.added} added, ${report.updated} updated, ${report.skipped - refused} skipped${refused ? `, ${refused} refused` : ''}.`,
  ];
  for (const [reason, n] of Object.entries(report.skippedReasons).sort((a, b) => b[1] - a[1])) {
    const problems = report.problemReasons[reason] ?? 0;
    if (n > problems) lines.push(`  skipped ${n - problems}: ${reason}`);
    if (problems) lines.push(`  refused ${problems}: ${reason}`);
  }
  for (const p of report.problems.slice(0, 20)) lines.push(`  ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  if (report.problemCount > 20) lines.push(`  ... and ${report.problemCount - 20} more problems (the JSON report lists the first ${MAX_PROBLEMS}).`);
  return lines.join('\n');
}
