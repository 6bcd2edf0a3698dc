import { isoMicros } from '../../serialize/timestamps';
import type { TweetRow } from '../tweet-row';

// THE column set of CSV and XLSX output (docs/api.md "Jobs and data files"): one row per Tweet,
// flattened. Stable: columns are only ever appended, never renamed, reordered or removed, so a
// script that reads them by name or by position keeps working. Ids are text (exact 19 digits);
// entity lists are joined with a single space (tags, screen names and URLs never contain one).
export type ColumnKind = 'id' | 'text' | 'int' | 'bool' | 'time';
export type Cell = string | number | boolean;

export interface Column {
  name: string;
  kind: ColumnKind;
}

const col = (name: string, kind: ColumnKind): Column => ({ name, kind });

export const COLUMNS: readonly Column[] = [
  col('id_str', 'id'),
  col('tweet_created_at', 'time'),
  col('full_text', 'text'),
  col('lang', 'text'),
  col('source', 'text'),
  col('user_id_str', 'id'),
  col('user_screen_name', 'text'),
  col('user_name', 'text'),
  col('user_verified', 'bool'),
  col('user_protected', 'bool'),
  col('user_followers_count', 'int'),
  col('user_friends_count', 'int'),
  col('user_statuses_count', 'int'),
  col('user_created_at', 'time'),
  col('user_location', 'text'),
  col('user_description', 'text'),
  col('in_reply_to_status_id_str', 'id'),
  col('in_reply_to_user_id_str', 'id'),
  col('in_reply_to_screen_name', 'text'),
  col('conversation_id_str', 'id'),
  col('reply_depth', 'int'),
  col('is_quote_status', 'bool'),
  col('quoted_status_id_str', 'id'),
  col('reply_count', 'int'),
  col('retweet_count', 'int'),
  col('quote_count', 'int'),
  col('favorite_count', 'int'),
  col('views_count', 'int'),
  col('bookmark_count', 'int'),
  col('hashtags', 'text'),
  col('symbols', 'text'),
  col('user_mentions', 'text'),
  col('urls', 'text'),
  col('wallet_address', 'text'),
];

interface EntityLike {
  text?: unknown;
  tag?: unknown;
  screen_name?: unknown;
  expanded_url?: unknown;
  url?: unknown;
}

function joinEntities(list: unknown, pick: (e: EntityLike) => unknown): string {
  if (!Array.isArray(list)) return '';
  const parts: string[] = [];
  for (const e of list as unknown[]) {
    const v = typeof e === 'string' ? e : e && typeof e === 'object' ? pick(e as EntityLike) : undefined;
    if (typeof v === 'string' && v !== '') parts.push(v);
  }
  return parts.join(' ');
}

const idText = (n: bigint | null): string => (n === null ? '' : n.toString());

/** One Tweet as cells in COLUMNS order. `wallet` is '' outside reply collection. */
export function flattenTweet(r: TweetRow, wallet: string): Cell[] {
  let entities: Record<string, unknown> = {};
  try {
    entities = JSON.parse(r.entities_json) as Record<string, unknown>;
  } catch {
    // A corrupt entities blob leaves its columns empty rather than failing a million-row job.
  }
  return [
    r.id.toString(),
    isoMicros(r.created_at_us),
    r.full_text,
    r.lang,
    r.source,
    r.user_id.toString(),
    r.u_screen_name,
    r.u_name,
    r.u_verified !== 0n,
    r.u_protected !== 0n,
    Number(r.u_followers_count),
    Number(r.u_friends_count),
    Number(r.u_statuses_count),
    isoMicros(r.u_created_at_us),
    r.u_location,
    r.u_description,
    idText(r.in_reply_to_status_id),
    idText(r.in_reply_to_user_id),
    r.in_reply_to_screen_name ?? '',
    r.conversation_id.toString(),
    Number(r.reply_depth),
    r.is_quote_status !== 0n,
    idText(r.quoted_status_id),
    Number(r.reply_count),
    Number(r.retweet_count),
    Number(r.quote_count),
    Number(r.favorite_count),
    Number(r.views_count),
    Number(r.bookmark_count),
    joinEntities(entities.hashtags, (e) => e.text ?? e.tag),
    joinEntities(entities.symbols, (e) => e.text),
    joinEntities(entities.user_mentions, (e) => e.screen_name),
    joinEntities(entities.urls, (e) => e.expanded_url ?? e.url),
    wallet,
  ];
}
