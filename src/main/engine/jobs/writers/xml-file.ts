import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';

// A file written piece by piece, in 64 KiB writes: a document of millions of elements is never
// one string in memory.

const FLUSH_AT_CHARS = 64 * 1024;

// XML 1.0 cannot carry these code points, not even as character references (§2.2): they are
// dropped, as the XLSX writer drops them. Lone surrogates cannot be encoded in UTF-8.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/gu;
const ATTR_SPECIAL = /[&<>"\t\n\r]/g;
const ATTR_REFS: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/**
 * Text as an XML attribute value. Tabs and line breaks are written as character references:
 * a parser turns a literal one into a space (attribute-value normalisation, XML 1.0 §3.3.3), so a
 * name with a line break would not read back as it was.
 */
export function xmlAttr(text: string): string {
  return text.replace(NOT_XML, '').replace(ATTR_SPECIAL, (c) => ATTR_REFS[c]!);
}

/** Text as XML character data. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>]/g, (c) => ATTR_REFS[c]!);
}

export class XmlFile {
  private readonly fd: number;
  private pending = '';
  private open = true;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= FLUSH_AT_CHARS) this.flush();
  }

  private flush(): void {
    if (this.pending === '') return;
    const buf = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    let done = 0;
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done);
  }

  /** Writes what is left and syncs: the file is complete on disk before it is renamed into place. */
  finish(): void {
    this.flush();
    fdatasyncSync(this.fd);
    this.close();
  }

  /** Idempotent, for the error path. */
  close(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.fd);
  }
}
