import type { Db } from '../../store/db';
import { ftsAfterInsert } from './bulk';
import { entityParts, writeEntityParts } from './entities';
import { nullableStr, optBool, optId, optInt, optRecord, optStr, id, unmodelled } from './fields';
import { CorpusInputError } from './input-error';
import { isRecord, stringifyExact } from './json';
import { placeInConversation, relinkChildren } from './thread';
import { timestampUs } from './time';
import { cached, makeUpsert, type Outcome } from './upsert';
import { upsertUserRow, userRow, type UserRow } from './user';

// The Tweet of spec 2.1 -> posts (+ its user, entity parts, conversation place, FTS by trigger).

const MODELLED = new Set([
  'tweet_created_at', 'id', 'id_str', 'full_text', 'source', 'truncated',
  'in_reply_to_status_id', 'in_reply_to_status_id_str', 'in_reply_to_user_id', 'in_reply_to_user_id_str',
  'in_reply_to_screen_name', 'user', 'quoted_status_id', 'quoted_status_id_str', 'is_quote_status',
  'quoted_status', 'retweeted_status', 'quote_count', 'reply_count', 'retweet_count', 'favorite_count',
  'lang', 'entities', 'views_count', 'bookmark_count', 'conversation_id', 'conversation_id_str',
]);

const COLUMNS = [
  { name: 'user_id', fallback: 0n },
  { name: 'created_at_us', fallback: 0 },
  { name: 'full_text', fallback: '' },
  { name: 'source', fallback: '' },
  { name: 'truncated', fallback: 0 },
  { name: 'in_reply_to_status_id', fallback: null },
  { name: 'in_reply_to_user_id', fallback: null },
  { name: 'in_reply_to_screen_name', fallback: null },
  { name: 'quoted_status_id', fallback: null },
  { name: 'is_quote_status', fallback: 0 },
  { name: 'quote_count', fallback: 0 },
  { name: 'reply_count', fallback: 0 },
  { name: 'retweet_count', fallback: 0 },
  { name: 'favorite_count', fallback: 0 },
  { name: 'views_count', fallback: 0 },
  { name: 'bookmark_count', fallback: 0 },
  { name: 'lang', fallback: 'und' },
  { name: 'entities_json', fallback: '{"user_mentions":[],"urls":[],"hashtags":[],"symbols":[]}' },
  { name: 'quoted_status_json', fallback: null },
  { name: 'retweeted_status_json', fallback: null },
  { name: 'conversation_id', fallback: 0n, insertOnly: true },
  { name: 'reply_depth', fallback: 0, insertOnly: true },
  { name: 'has_links', fallback: 0 },
  { name: 'has_media', fallback: 0 },
  { name: 'raw_json', fallback: null, mergeJson: true },
];

const upserts = new WeakMap<Db, ReturnType<typeof makeUpsert>>();

export interface WriteOptions {
  /** When this copy of the record was retrieved (epoch ms): the later retrieval wins. */
  retrievedAtMs: number;
  /**
   * Fast path for bulk writers (the seed generator): the caller stored this exact nested user
   * already, so it is parsed but not written again for every post.
   */
  userStored?: boolean;
}

function nestedObject(tweet: Record<string, unknown>, name: string): string | null | undefined {
  const v = tweet[name];
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (!isRecord(v)) throw new CorpusInputError(name, 'expected an object or null');
  return stringifyExact(v);
}

/**
 * Stores one Tweet of the service's own JSON shape (spec 2.1, nested User and Entities), ids from
 * `*_str` or exact digits. Quoted and retweeted statuses that carry an id and a user are stored as
 * posts of their own as well (best effort: their own faults do not refuse the outer post).
 */
export function upsertTweet(db: Db, tweet: unknown, options: WriteOptions): Outcome {
  return db.inTransaction ? writeTweet(db, tweet, options) : db.transaction(() => writeTweet(db, tweet, options))();
}

function storedUser(user: unknown): UserRow {
  if (!isRecord(user)) throw new CorpusInputError('user', 'expected a user object');
  return { id: id(user, 'id', 'user.') };
}

function writeTweet(db: Db, tweet: unknown, options: WriteOptions): Outcome {
  if (!isRecord(tweet)) throw new CorpusInputError('tweet', 'expected a Tweet object');
  const postId = id(tweet, 'id');
  // A stored user is only referred to: its id, without reading its 20 other fields again (4% of
  // a seed's time, measured on 300,000 posts).
  const user = options.userStored ? storedUser(tweet.user) : userRow(tweet.user, 'user.');
  const fullText = optStr(tweet, 'full_text') ?? optStr(tweet, 'text');
  if (fullText === undefined) throw new CorpusInputError('full_text', 'missing');
  if (tweet.tweet_created_at === undefined) throw new CorpusInputError('tweet_created_at', 'missing');
  const createdUs = timestampUs(tweet.tweet_created_at, 'tweet_created_at');
  const entities = optRecord(tweet, 'entities');
  const inReplyTo = optId(tweet, 'in_reply_to_status_id');
  const raw = unmodelled(tweet, MODELLED);
  // `text` is null in every response the spec shows; a source's non-null text is kept verbatim.
  if (raw && raw.text === null) delete raw.text;
  const media = entities && Array.isArray(entities.media) && entities.media.length > 0;
  const extended = (isRecord(raw?.extended_entities) && Array.isArray(raw.extended_entities.media) && raw.extended_entities.media.length > 0) ||
    (isRecord(raw?.attachments) && Array.isArray(raw.attachments.media_keys) && raw.attachments.media_keys.length > 0); // v2
  const row: Record<string, unknown> = {
    id: postId,
    user_id: user.id,
    created_at_us: createdUs,
    full_text: fullText,
    source: optStr(tweet, 'source'),
    truncated: optBool(tweet, 'truncated'),
    in_reply_to_status_id: inReplyTo,
    in_reply_to_user_id: optId(tweet, 'in_reply_to_user_id'),
    in_reply_to_screen_name: nullableStr(tweet, 'in_reply_to_screen_name'),
    quoted_status_id: optId(tweet, 'quoted_status_id'),
    is_quote_status: optBool(tweet, 'is_quote_status'),
    quote_count: optInt(tweet, 'quote_count'),
    reply_count: optInt(tweet, 'reply_count'),
    retweet_count: optInt(tweet, 'retweet_count'),
    favorite_count: optInt(tweet, 'favorite_count'),
    views_count: optInt(tweet, 'views_count'),
    bookmark_count: optInt(tweet, 'bookmark_count'),
    lang: optStr(tweet, 'lang'),
    entities_json: entities ? stringifyExact(entities) : undefined,
    quoted_status_json: nestedObject(tweet, 'quoted_status'),
    retweeted_status_json: nestedObject(tweet, 'retweeted_status'),
    has_links: entities ? (Array.isArray(entities.urls) && entities.urls.length > 0 ? 1 : 0) : undefined,
    has_media: entities || extended ? (media || extended ? 1 : 0) : undefined,
    raw_json: raw && Object.keys(raw).length > 0 ? stringifyExact(raw) : undefined,
  };
  // Nullable reply fields: a source that names none of them says "not a reply" only if it is a
  // Tweet-shaped source; absent keys (undefined) keep what is stored.
  for (const k of ['in_reply_to_status_id', 'in_reply_to_user_id', 'quoted_status_id'] as const) {
    if (row[k] === null && tweet[k] === undefined && tweet[`${k}_str`] === undefined) row[k] = undefined;
  }

  for (const nested of ['quoted_status', 'retweeted_status'] as const) {
    const v = tweet[nested];
    if (isRecord(v) && v.user !== undefined) {
      try {
        // An embedded copy counts as a moment older than the post that embeds it, so the post's
        // own top-level copy (in the same file, same retrieval time) wins whichever comes first.
        writeTweet(db, v, { ...options, retrievedAtMs: options.retrievedAtMs - 1 });
      } catch (err) {
        if (!(err instanceof CorpusInputError)) throw err;
      }
    }
  }

  if (!options.userStored) upsertUserRow(db, user, options.retrievedAtMs);
  const place = placeInConversation(db, postId, inReplyTo ?? null, optId(tweet, 'conversation_id'));
  row.conversation_id = place.conversation_id;
  row.reply_depth = place.reply_depth;
  const result = cached(upserts, db, (d) => makeUpsert(d, 'posts', 'id', COLUMNS))(row, options.retrievedAtMs);
  if (result.outcome === 'added') {
    ftsAfterInsert(db, postId, fullText);
    writeEntityParts(db, postId, entityParts(entities), true);
    relinkChildren(db, postId, place.conversation_id, place.reply_depth);
  } else if (result.changed.includes('entities_json')) {
    writeEntityParts(db, postId, entityParts(entities), false);
  }
  return result.outcome;
}
