import { fail } from '../errors';

// The keyset a page ends on, as a short string a job can store: `L:<id>` for Latest (next page:
// id < id), `T:<score>:<id>` for Top (next page: (score, id) < (score, id)). Not secret and not
// sealed: clients only ever see it sealed by the HTTP layer.

export type SearchType = 'Latest' | 'Top';

export type Keyset = { type: 'Latest'; id: bigint } | { type: 'Top'; score: bigint; id: bigint };

const MAX_ID = (1n << 63n) - 1n;

export function encodeKeyset(k: Keyset): string {
  return k.type === 'Latest' ? `L:${k.id}` : `T:${k.score}:${k.id}`;
}

export function decodeKeyset(cursor: string, type: SearchType): Keyset {
  const m = /^(?:L:([0-9]{1,19})|T:(-?[0-9]{1,19}):([0-9]{1,19}))$/.exec(cursor);
  const id = m ? BigInt(m[1] ?? m[3]!) : -1n;
  if (!m || id > MAX_ID) throw fail.invalid('cursor', 'not a cursor of this search; pass next_cursor exactly as it was returned');
  const decoded: Keyset = m[1] !== undefined ? { type: 'Latest', id } : { type: 'Top', score: BigInt(m[2]!), id };
  if (decoded.type !== type) throw fail.invalid('cursor', `this cursor belongs to a ${decoded.type} search, not a ${type} one`);
  return decoded;
}
