import { MAX_MEMO_CHARS } from '../ledger';

/** A run's count after its request: "GET /social/search ×25". A request's memo has no space after its path. */
const RUN_COUNT = / ×(\d+)$/;

/**
 * Request memos in order, a run of the same request said once with its count: ["GET /a", "GET /a",
 * "GET /b"] -> "GET /a ×2, GET /b". Memos already collapsed (a journal row's) merge their counts, so
 * a move of 300 identical requests reads "GET /social/search ×300", not the first 30 of them.
 */
export function collapseMemos(memos: readonly string[]): string {
  const runs: [string, number][] = [];
  for (const memo of memos) {
    for (const part of memo.split(', ')) {
      const m = RUN_COUNT.exec(part);
      const text = m ? part.slice(0, m.index) : part;
      const count = m ? Number(m[1]) : 1;
      const last = runs.at(-1);
      if (last && last[0] === text) last[1] += count;
      else runs.push([text, count]);
    }
  }
  return runs.map(([text, count]) => (count > 1 ? `${text} ×${count}` : text)).join(', ');
}

/** One request: its own memo. Several: "3 requests: GET /a ×2, GET /b", cut at MAX_MEMO_CHARS. */
export function memoOf(memos: readonly string[]): string {
  return requestsMemo(memos.length, collapseMemos(memos));
}

/** `requests` requests whose memos, collapsed, are `joined` (a journal move counts rows of several requests each). */
export function requestsMemo(requests: number, joined: string): string {
  if (requests === 1) return joined;
  const text = `${requests} requests: ${joined}`;
  return text.length <= MAX_MEMO_CHARS ? text : `${text.slice(0, MAX_MEMO_CHARS - 1)}…`;
}
