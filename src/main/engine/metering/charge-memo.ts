import { MAX_MEMO_CHARS } from '../ledger';

/** One request: its own memo. Several: "3 requests: GET /a, GET /b, GET /c", cut at MAX_MEMO_CHARS. */
export function memoOf(memos: readonly string[]): string {
  if (memos.length === 1) return memos[0]!;
  const text = `${memos.length} requests: ${memos.join(', ')}`;
  return text.length <= MAX_MEMO_CHARS ? text : `${text.slice(0, MAX_MEMO_CHARS - 1)}…`;
}
