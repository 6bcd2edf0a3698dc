import type { Db } from '../../store/db';
import { isRecord } from './json';
import { cached } from './upsert';

// The parts of a post's Entities the search operators look up (#tag, $CASH, @name, url:), lower-
// cased, one row per distinct value. Rewritten whole whenever entities_json changes.

export interface EntityParts {
  hashtags: string[];
  symbols: string[];
  mentions: string[];
  urls: string[];
}

const MAX_PER_KIND = 100; // a post holds at most a few dozen; a hostile file cannot make thousands

function texts(list: unknown, field: string): string[] {
  if (!Array.isArray(list)) return [];
  const out = new Set<string>();
  for (const e of list) {
    if (out.size >= MAX_PER_KIND) break;
    if (typeof e === 'string') out.add(e.toLowerCase());
    else if (isRecord(e)) {
      const v = e[field] ?? (field === 'expanded_url' ? e.url : field === 'text' ? e.tag : undefined);
      if (typeof v === 'string' && v) out.add(v.toLowerCase());
    }
  }
  return [...out];
}

export function entityParts(entities: Record<string, unknown> | undefined): EntityParts {
  if (!entities) return { hashtags: [], symbols: [], mentions: [], urls: [] };
  return {
    hashtags: texts(entities.hashtags, 'text'),
    symbols: texts(entities.symbols, 'text'),
    mentions: texts(entities.user_mentions, 'screen_name'),
    urls: texts(entities.urls, 'expanded_url'),
  };
}

interface Statements {
  clear(id: bigint): void;
  insert(id: bigint, parts: EntityParts): void;
}
const statements = new WeakMap<Db, Statements>();

function make(db: Db): Statements {
  const tables = [
    ['post_hashtags', 'tag', 'hashtags'],
    ['post_symbols', 'symbol', 'symbols'],
    ['post_mentions', 'screen_name', 'mentions'],
    ['post_urls', 'url', 'urls'],
  ] as const;
  const del = tables.map(([t]) => db.prepare(`DELETE FROM ${t} WHERE post_id = ?`));
  const ins = tables.map(([t, c, k]) => ({ stmt: db.prepare(`INSERT OR IGNORE INTO ${t} (post_id, ${c}) VALUES (?, ?)`), k }));
  return {
    clear: (id) => del.forEach((s) => s.run(id)),
    insert(id, parts) {
      for (const { stmt, k } of ins) for (const v of parts[k]) stmt.run(id, v);
    },
  };
}

/** Writes the entity rows of a post; `fresh` skips the delete for a post inserted just now. */
export function writeEntityParts(db: Db, postId: bigint, parts: EntityParts, fresh: boolean): void {
  const s = cached(statements, db, make);
  if (!fresh) s.clear(postId);
  s.insert(postId, parts);
}
