import type { Db } from '../engine/store/db';

// The seed's rate and the database's size at every tenth of the corpus (every 1,000,000 posts of
// xl), so a build log shows whether both stay flat as the corpus grows (issue 17).

/** Bytes the database's used pages take (WAL pages included: what the file holds once checkpointed). */
export function usedBytes(db: Db): number {
  const page = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return (pages - free) * page;
}

export interface Milestone {
  posts: number;
  elapsedMs: number;
  /** Posts per second since the previous milestone. */
  postsPerS: number;
  /** Posts per second of this process's CPU time since the previous milestone: what a busy machine does not change much. */
  postsPerCpuS: number;
  bytes: number;
}

export class SeedMilestones {
  readonly reachedList: Milestone[] = [];
  private next = 0;
  private step = 0;
  private last: { posts: number; atMs: number; cpuMs: number };

  constructor(private readonly db: Db, private readonly startedMs: number, private readonly print: (line: string) => void, startCpuMs = 0) {
    this.last = { posts: 0, atMs: startedMs, cpuMs: startCpuMs };
  }

  /** Called after each committed batch with the posts written so far and this process's CPU time (ms). */
  reached(posts: number, nowMs: number, total: number, cpuMs: number): void {
    if (this.step === 0) {
      this.step = Math.max(1, Math.round(total / 10));
      this.next = this.step;
    }
    if (posts < this.next) return;
    const bytes = usedBytes(this.db);
    const done = posts - this.last.posts;
    const m: Milestone = {
      posts,
      elapsedMs: nowMs - this.startedMs,
      postsPerS: done / Math.max(0.001, (nowMs - this.last.atMs) / 1000),
      postsPerCpuS: done / Math.max(0.001, (cpuMs - this.last.cpuMs) / 1000),
      bytes,
    };
    this.reachedList.push(m);
    this.last = { posts, atMs: nowMs, cpuMs };
    while (this.next <= posts) this.next += this.step;
    this.print(`seed: ${posts.toLocaleString('en-US')} posts after ${(m.elapsedMs / 1000).toFixed(0)} s: ${Math.round(m.postsPerS).toLocaleString('en-US')} posts/s since the last line (${Math.round(m.postsPerCpuS).toLocaleString('en-US')} per CPU second); database ${mb(bytes)}, ${Math.round(bytes / posts)} bytes per post`);
  }

  /** "database 8,190 MB, 819 bytes per post" for the final line. */
  sizeText(posts?: number): string {
    const bytes = usedBytes(this.db);
    return `database ${mb(bytes)}${posts ? `, ${Math.round(bytes / posts)} bytes per post` : ''}`;
  }
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024).toLocaleString('en-US')} MB`;
