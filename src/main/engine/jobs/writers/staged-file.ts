import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The file a job appends its rows to while it collects them. It is cut back to the last committed
 * length when it is opened, so the bytes of a batch that was written but never committed (the
 * process died between the write and the checkpoint) disappear before the batch is redone.
 * sync() is called before each checkpoint commits: a committed checkpoint never points past the
 * bytes on disk.
 */
export class StagedFile {
  private readonly fd: number;
  private length: number;
  private open = true;

  constructor(readonly path: string, committedBytes: number) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a+');
    // 'a+' creates the file; writes below use explicit positions, so appends land where we say.
    const size = fstatSync(this.fd).size;
    if (size < committedBytes) {
      closeSync(this.fd);
      throw new Error(`staged output ${path} has ${size} bytes but its checkpoint says ${committedBytes}: the file was truncated outside Skein`);
    }
    if (size > committedBytes) ftruncateSync(this.fd, committedBytes);
    this.length = committedBytes;
  }

  get bytes(): number {
    return this.length;
  }

  append(text: string): void {
    const buf = Buffer.from(text, 'utf8');
    let done = 0;
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done, this.length + done);
    this.length += buf.length;
  }

  sync(): void {
    fdatasyncSync(this.fd);
  }

  /** Idempotent: a closed descriptor number may be reused by the next open, so it is closed once. */
  close(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.fd);
  }
}
