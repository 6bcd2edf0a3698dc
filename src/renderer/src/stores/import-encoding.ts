import { create } from 'zustand';
import type { ImportEncoding } from '../../../shared/contract';
import { keptChoice } from './kept-choice';

// How the app's imports read a file that is not valid UTF-8 and has no byte-order mark: refuse it,
// naming its first bad byte (the default, as `skein import`), or read it as Latin-1 (Windows-1252),
// as `skein import --encoding latin1` does. Older Excel and R exports on Windows are Latin-1. Valid
// UTF-8 files and files with a BOM are read as such either way, so the choice is safe to keep for
// every import: a per-machine preference in localStorage, like the CSV dialect.
const kept = keptChoice<ImportEncoding>('skein.importEncoding', ['utf8', 'latin1'], 'utf8');

interface ImportEncodingState {
  encoding: ImportEncoding;
  setEncoding(encoding: ImportEncoding): void;
}

export const useImportEncoding = create<ImportEncodingState>((set) => ({
  encoding: kept.read(),
  setEncoding(encoding) {
    kept.write(encoding);
    set({ encoding });
  },
}));
