import { MAX_MEMO_CHARS } from '../ledger';

/** One request: its own memo. Several: "3 requests: GET /a, GET /b, GET /c", cut at MAX_MEMO_CHARS. */
export function memoOf(memos: readonly string[]): string {
  return requestsMemo(memos.length, memos.join(', '));
}

/** `requests` requests whose memos, joined, are `joined` (a journal move counts rows of several requests each). */
export function requestsMemo(requests: number, joined: string): string {
  if (requests === 1) return joined;
  const text = `${requests} requests: ${joined}`;
  return text.length <= MAX_MEMO_CHARS ? text : `${text.slice(0, MAX_MEMO_CHARS - 1)}…`;
}
