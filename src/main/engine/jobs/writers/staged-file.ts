import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Tests only: a full disk on demand, per folder of staged files (a data dir's exports/.partial),
 * in this thread (the inline runner). Once `bytes` more have been written there, a write stores
 * what fits and fails with ENOSPC, as a real full disk does. null lifts the limit. A worker thread
 * has its own copy of this module and never sees it: a real full disk (tmpfs) tests those.
 */
const writeLimits = new Map<string, { left: number }>();
export function setStagedWriteLimit(folder: string, bytes: number | null): void {
  if (bytes === null) writeLimits.delete(folder);
  else writeLimits.set(folder, { left: bytes });
}

function noSpace(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'write', path });
}

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
    const limit = writeLimits.get(dirname(this.path));
    let done = 0;
    try {
      if (limit && limit.left < buf.length) {
        done = writeSync(this.fd, buf, 0, limit.left, this.length);
        limit.left = 0;
        throw noSpace(this.path);
      }
      if (limit) limit.left -= buf.length;
      while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done, this.length + done);
    } catch (err) {
      throw withPath(err, this.path);
    }
    this.length += buf.length;
  }

  sync(): void {
    try {
      fdatasyncSync(this.fd);
    } catch (err) {
      throw withPath(err, this.path);
    }
  }

  /** Idempotent: a closed descriptor number may be reused by the next open, so it is closed once. */
  close(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.fd);
  }
}

/** writeSync's and fdatasync's errors name no file; a full disk's message must (jobs/disk-full.ts). */
function withPath(err: unknown, path: string): unknown {
  if (err instanceof Error && (err as NodeJS.ErrnoException).path === undefined) (err as NodeJS.ErrnoException).path = path;
  return err;
}
