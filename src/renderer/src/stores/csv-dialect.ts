import { create } from 'zustand';
import type { CsvDialect } from '../../../shared/contract';
import { keptChoice } from './kept-choice';

// The CSV dialect the job form starts with (issue 16, csv_dialect): `excel` (a BOM so Excel reads
// accents and emoji, and an apostrophe before text that Excel would run as a formula) or `plain`
// (every text as it is, no BOM: what pandas and R read). The default is excel, the API's default:
// a CSV started in the app is most often opened by dragging it from Exports into Excel, and
// there a file without the BOM shows "cafÃ©" and a post beginning with "=" runs as a formula.
// An analyst who reads files in pandas or R sets plain once here. A per-machine preference in
// localStorage, like the time zone and image settings; each job can still choose in its form.
const kept = keptChoice<CsvDialect>('skein.csvDialect', ['excel', 'plain'], 'excel');

interface CsvDialectState {
  dialect: CsvDialect;
  setDialect(dialect: CsvDialect): void;
}

export const useCsvDialect = create<CsvDialectState>((set) => ({
  dialect: kept.read(),
  setDialect(dialect) {
    kept.write(dialect);
    set({ dialect });
  },
}));

/** Words for each dialect, shared by the setting and the job form. */
export const CSV_DIALECT_LABELS: Record<CsvDialect, string> = {
  excel: 'For Excel',
  plain: 'For pandas and R (plain)',
};
