import type { BackupReport, RestoreReport } from '../engine/backup';

// The human-readable lines of `skein backup` and `skein restore` (--json prints the report).

/** 1536 -> "1.5 KB"; decimal units, as file managers show sizes. */
export function sizeOf(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = bytes / 1000;
  let u = 0;
  while (n >= 1000 && u < units.length - 1) {
    n /= 1000;
    u++;
  }
  return `${n.toFixed(1)} ${units[u]}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function listed(names: readonly string[], max = 5): string {
  return names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more` : names.join(', ');
}

export function holdsLine(c: BackupReport['counts']): string {
  return `It holds ${plural(c.posts, 'post')}, ${plural(c.users, 'user')}, ${plural(c.api_users, 'API user')}, ${plural(c.jobs, 'job')} and ${plural(c.ledger_transfers, 'ledger transfer')}.`;
}

export function backupLines(r: BackupReport, dataDir: string): string[] {
  const e = r.exports;
  const lines = [
    `${r.replaced ? 'Replaced' : 'Wrote'} ${r.file}: ${sizeOf(r.bytes)}, ${r.pages} pages of ${r.page_size} bytes, copied in ${(r.duration_ms / 1000).toFixed(1)} s${r.restarts ? ` (the copy started over ${plural(r.restarts, 'time')} while the app wrote)` : ''}.`,
    "SQLite: every page of the backup reads back (quick_check ok).",
    holdsLine(r.counts),
  ];
  if (e.referenced === 0) lines.push('Export files: the backup refers to none.');
  else if (e.copied_to) lines.push(`Export files: copied ${plural(e.copied, 'file')} (${sizeOf(e.copied_bytes)}) the backup refers to into ${e.copied_to}/.`);
  else {
    lines.push(
      `Export files: the backup refers to ${plural(e.present, 'file')} (${sizeOf(e.bytes)}) in ${dataDir}/exports; they were NOT copied (add --with-exports to copy them).`,
    );
  }
  if (e.missing.length) lines.push(`Not in the exports folder (removed), so not in the backup: ${plural(e.missing.length, 'file')} the backup refers to: ${listed(e.missing)}.`);
  return lines;
}

export function restoreLines(r: RestoreReport): string[] {
  const e = r.exports;
  const lines = [
    `Restored ${r.from} into ${r.database}.`,
    holdsLine(r.counts),
    r.migrations_applied.length
      ? `Brought up to date: ${plural(r.migrations_applied.length, 'migration')} applied (${r.migrations_applied.join(', ')}).`
      : 'The backup was up to date: no migration needed.',
  ];
  if (r.kept_aside) lines.push(`Kept aside, nothing deleted: ${r.kept_aside}/ holds what was replaced (skein restore ${r.kept_aside}/skein.db --force puts it back).`);
  if (e.referenced === 0) lines.push('Export files: the backup refers to none.');
  else {
    const parts = [
      e.in_place ? `${e.in_place} already in place` : '',
      e.copied ? `${e.copied} copied from ${r.copies_from}/` : '',
      e.unverified ? `${e.unverified} of the same name found in exports/ (kept; nothing to compare them with)` : '',
    ].filter(Boolean);
    lines.push(`Export files: the backup refers to ${plural(e.referenced, 'file')}${parts.length ? `: ${parts.join(', ')}` : ''}.`);
  }
  if (e.missing.length) lines.push(`Missing from exports/ ${r.copies_from ? 'and from the copies' : '(the backup was made without --with-exports)'}: ${listed(e.missing)}.`);
  if (e.kept_different.length) lines.push(`Kept the file in exports/ where the backup's copy differs: ${listed(e.kept_different)}.`);
  if (e.moved_aside) lines.push(`Moved ${plural(e.moved_aside, 'export file')} of the replaced database to ${r.kept_aside}/skein.db.exports/.`);
  if (e.partial_moved) lines.push(`Moved ${plural(e.partial_moved, 'unfinished file')} of exports/.partial to ${r.kept_aside}/partial/: jobs that were running collect again from their first row, charging nothing twice.`);
  if (r.journals_kept_aside) {
    lines.push(
      `Moved ${plural(r.journals_kept_aside, 'metering journal')} of the replaced database (requests its API answered and had not yet written to its ledger) to ${r.kept_aside}/metering/: restoring ${r.kept_aside}/skein.db brings them back.`,
    );
  }
  if (r.journals_restored) lines.push(`Brought ${plural(r.journals_restored, 'metering journal')} along from beside ${r.from}: the next start writes their charges to the ledger.`);
  lines.push("Run 'skein doctor' to re-check the whole ledger; start Skein as usual.");
  return lines;
}
