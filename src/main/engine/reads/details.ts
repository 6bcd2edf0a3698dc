import type { Engine } from '../engine';
import { fail } from '../errors';
import { articleDetail } from '../serialize/article';
import type { ArticleRow, PostRow, SpaceRow } from '../serialize/rows';
import { spaceObject } from '../serialize/space';
import { detailTweet, type JsonObject } from '../serialize/tweet';
import { parseNumericId, parseSpaceId } from './params';
import type { JsonReadResult, ReadResult } from './result';
import { postRowOf } from './post-select';
import { statements } from './statements';

type ReadEngine = Pick<Engine, 'db'>;

/** The stored post with its author, or undefined. For jobs and search: the row detailTweet takes. */
export function findPost(engine: ReadEngine, id: bigint): PostRow | undefined {
  const raw = statements(engine.db).post.get(id) as unknown[] | undefined;
  return raw ? postRowOf(raw) : undefined;
}

/**
 * Tweet details (4.3). `idRaw` is the request's `id`, from the query or the path. A protected
 * account's post is 404 (docs/decisions.md "Search: protected accounts"): it is not public, and 404 is
 * the status the spec's table gives tweet details for a tweet that cannot be had (its 403 is for
 * timelines); the message says why, as the platform tells a visitor with the link.
 */
export function readTweet(engine: ReadEngine, idRaw: unknown): ReadResult {
  return { value: detailTweet(postOf(engine, idRaw)), items: 1 };
}

/** readTweet as JSON text, written by SQLite (serialize/tweet-json-sql.ts): the HTTP answer. */
export function readTweetJson(engine: ReadEngine, idRaw: unknown): JsonReadResult {
  const id = parseNumericId('id', idRaw);
  // SQL NULL: the post exists but its author is protected (statements.ts).
  const json = statements(engine.db).postJson.get(id) as string | null | undefined;
  if (json === undefined) throw notFound(id);
  if (json === null) throw protectedPost(id);
  return { json, items: 1 };
}

/** The stored post of a read, or the read's 404 (not held, or a protected author's). */
export function postOf(engine: ReadEngine, idRaw: unknown, parameter = 'id'): PostRow {
  const id = parseNumericId(parameter, idRaw);
  const row = findPost(engine, id);
  if (!row) throw notFound(id);
  if (row.u_protected !== 0n) throw protectedPost(id);
  return row;
}

const notFound = (id: bigint) => fail.notFound(`Tweet ${id} was not found.`);
const protectedPost = (id: bigint) =>
  fail.notFound(`Tweet ${id} was not found: its author's account is protected, and a protected account's posts are not public.`);

/** Article details (4.4): the post that carries the article, with it (404 for a protected author, as readTweet). */
export function readArticle(engine: ReadEngine, articleIdRaw: unknown): ReadResult {
  const row = postOf(engine, articleIdRaw, 'article_id');
  const id = row.id;
  const article = statements(engine.db).article.get(id) as ArticleRow | undefined;
  if (!article) throw fail.notFound(`Tweet ${id} was not found with an article: it carries no article.`);
  return { value: articleDetail(row, article), items: 1 };
}

/** Space details (4.5). */
export function readSpace(engine: ReadEngine, idRaw: unknown): ReadResult {
  const id = parseSpaceId('id', idRaw);
  const row = statements(engine.db).space.get(id) as SpaceRow | undefined;
  if (!row) throw fail.notFound(`Space ${id} was not found.`);
  return { value: spaceObject(row), items: 1 };
}

export type { JsonObject };
