import type { Db } from '../../store/db';
import { id, optId, optRecord, optStr, unmodelled } from './fields';
import { CorpusInputError } from './input-error';
import { isRecord, stringifyExact } from './json';
import { parseTimestampUs, timestampUs } from './time';
import { upsertTweet, type WriteOptions } from './tweet';
import { cached, makeUpsert, type Outcome } from './upsert';

// Article details (spec 2.4): a Tweet plus created_at, user_id, user_screen_name and `article`.
// The tweet part goes through upsertTweet; the article to `articles`, keyed by the carrying post.

const DETAIL_KEYS = new Set(['created_at', 'user_id', 'user_id_str', 'user_screen_name', 'article']);
const ARTICLE_MODELLED = new Set(['published_at', 'id', 'id_str', 'title', 'preview_text', 'cover_url', 'content_state', 'media_entities']);

const COLUMNS = [
  { name: 'id', fallback: 0n },
  { name: 'title', fallback: '' },
  { name: 'preview_text', fallback: '' },
  { name: 'cover_url', fallback: '' },
  { name: 'published_at_us', fallback: 0 },
  { name: 'content_state_json', fallback: '{"blocks":[],"entityMap":[]}' },
  { name: 'media_entities_json', fallback: '[]' },
  { name: 'raw_json', fallback: null, mergeJson: true },
];
const upserts = new WeakMap<Db, ReturnType<typeof makeUpsert>>();

export function upsertArticleDetails(db: Db, details: unknown, options: WriteOptions): Outcome {
  return db.inTransaction ? write(db, details, options) : db.transaction(() => write(db, details, options))();
}

function write(db: Db, details: unknown, options: WriteOptions): Outcome {
  if (!isRecord(details)) throw new CorpusInputError('article details', 'expected an object');
  const article = optRecord(details, 'article');
  if (!article) throw new CorpusInputError('article', 'missing: not an article details object');
  const tweet: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) if (!DETAIL_KEYS.has(k)) tweet[k] = v;
  const postId = id(tweet, 'id');
  // Without the nested user, the details' user_id still names the author: kept as incomplete.
  const authorId = optId(details, 'user_id');
  if ((tweet.user === undefined || tweet.user === null) && authorId !== null) tweet.user = { id_str: authorId.toString() };

  const contentState = article.content_state;
  if (contentState !== undefined && !isRecord(contentState)) throw new CorpusInputError('article.content_state', 'expected an object');
  if (isRecord(contentState) && contentState.blocks !== undefined && !Array.isArray(contentState.blocks)) {
    throw new CorpusInputError('article.content_state.blocks', 'expected an array');
  }
  const media = article.media_entities;
  if (media !== undefined && media !== null && !Array.isArray(media)) throw new CorpusInputError('article.media_entities', 'expected an array');
  const title = optStr(article, 'title', 'article.');
  if (title === undefined) throw new CorpusInputError('article.title', 'missing');

  // The details-level created_at repeats tweet_created_at in the +00:00 form; kept only if it differs.
  const raw = unmodelled(article, ARTICLE_MODELLED) ?? {};
  if (typeof details.created_at === 'string' && typeof tweet.tweet_created_at === 'string' &&
      parseTimestampUs(details.created_at) !== parseTimestampUs(tweet.tweet_created_at)) {
    raw.details_created_at = details.created_at;
  }

  const tweetOutcome = upsertTweet(db, tweet, options);
  const row = {
    post_id: postId,
    id: id(article, 'id', 'article.'),
    title,
    preview_text: optStr(article, 'preview_text', 'article.'),
    cover_url: optStr(article, 'cover_url', 'article.'),
    published_at_us: article.published_at == null ? undefined : timestampUs(article.published_at, 'article.published_at'),
    content_state_json: isRecord(contentState) ? stringifyExact(contentState) : undefined,
    media_entities_json: Array.isArray(media) ? stringifyExact(media) : undefined,
    raw_json: Object.keys(raw).length > 0 ? stringifyExact(raw) : undefined,
  };
  const { outcome } = cached(upserts, db, (d) => makeUpsert(d, 'articles', 'post_id', COLUMNS))(row, options.retrievedAtMs);
  if (outcome === 'added' || outcome === 'updated') return outcome;
  return tweetOutcome === 'updated' ? 'updated' : outcome;
}
