import { closeSync, openSync, readSync, statSync } from 'node:fs';

const CHUNK_BYTES = 1 << 20;

/** True when two files hold the same bytes: sizes first, then 1 MiB at a time (stops at the first difference). */
export function sameContent(a: string, b: string): boolean {
  if (statSync(a).size !== statSync(b).size) return false;
  const fa = openSync(a, 'r');
  const fb = openSync(b, 'r');
  try {
    const ba = Buffer.alloc(CHUNK_BYTES);
    const bb = Buffer.alloc(CHUNK_BYTES);
    for (let pos = 0; ; pos += CHUNK_BYTES) {
      const na = readSync(fa, ba, 0, CHUNK_BYTES, pos);
      const nb = readSync(fb, bb, 0, CHUNK_BYTES, pos);
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
      if (na === 0) return true;
    }
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}
