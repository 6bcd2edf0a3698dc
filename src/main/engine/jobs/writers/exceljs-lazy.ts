import type ExcelJS from 'exceljs';

// exceljs takes ~360 ms to load (bench/startup.bench.ts's profile: most of an empty start), and only
// an XLSX export or an XLSX preview needs it: it is loaded on first use, not at every start.
let loading: Promise<typeof ExcelJS> | null = null;

export function loadExcelJs(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((m) => ((m as { default?: typeof ExcelJS }).default ?? (m as unknown as typeof ExcelJS)));
  return loading;
}
