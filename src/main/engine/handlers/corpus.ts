import type { CorpusSummary, DemoRemoval, TourStop } from '../../../shared/contract';
import type { Engine } from '../engine';
import { getCorpusSummary, getTour } from '../corpus/summary';
import { removableSeeds, removeSeededData } from '../corpus/seed';
import { whenWriteFree } from '../store/when-write-free';

interface TourJson {
  protected_user?: { id_str: string; screen_name: string; note?: string };
  article_post?: { id_str: string; title?: string; note?: string };
  space?: { id: string; title?: string; note?: string };
  large_conversation_root?: { id_str: string; replies?: number; note?: string };
  self_thread_root?: { id_str: string; note?: string };
  quote_post?: { id_str: string; note?: string };
  deep_reply?: { id_str: string; depth?: number; note?: string };
  spam_reply?: { id_str: string; note?: string };
  wallet_reply?: { id_str: string; note?: string };
  ids_above_2_53?: { user_id_str: string; post_id_str: string; note?: string };
  small_id_user?: { id_str: string; screen_name?: string; note?: string };
}

/** The seed's tour (corpus_meta 'tour', ids as strings) as stops the home screen can link. */
export function tourStops(tour: TourJson | null): TourStop[] {
  if (!tour) return [];
  const stops: TourStop[] = [];
  const add = (kind: TourStop['kind'], id: string | undefined, label: string) => {
    if (id && /^[\w-]{1,40}$/.test(id)) stops.push({ kind, id, label });
  };
  add('article', tour.article_post?.id_str, `An article: “${tour.article_post?.title ?? 'untitled'}”`);
  add('space', tour.space?.id, `An ended space: “${tour.space?.title ?? 'untitled'}”`);
  add('conversation', tour.large_conversation_root?.id_str, `A large conversation (${tour.large_conversation_root?.replies ?? 'many'} replies)`);
  add('post', tour.self_thread_root?.id_str, 'A self-thread');
  add('post', tour.quote_post?.id_str, 'A quote post');
  add('post', tour.deep_reply?.id_str, `A deep reply (level ${tour.deep_reply?.depth ?? 3})`);
  add('post', tour.spam_reply?.id_str, 'A spam-like reply');
  add('post', tour.wallet_reply?.id_str, 'A reply carrying a wallet-like string');
  add('user', tour.protected_user?.id_str, `A protected user (@${tour.protected_user?.screen_name ?? '?'})`);
  add('user', tour.ids_above_2_53?.user_id_str, 'A user whose id is above 2^53');
  add('post', tour.ids_above_2_53?.post_id_str, 'A post whose id is above 2^53');
  add('user', tour.small_id_user?.id_str, `A user with a small id (@${tour.small_id_user?.screen_name ?? '?'})`);
  return stops;
}

/** Figures of the corpus: aggregate counts are not items of data, so they are not metered. */
export function corpusSummary(engine: Engine): CorpusSummary {
  return {
    ...getCorpusSummary(engine.db),
    tour: tourStops(getTour(engine.db) as TourJson | null),
    holds_demo_data: removableSeeds(engine.db).length > 0,
  };
}

/**
 * The demo data out of the corpus (corpus/seed/remove.ts), a transaction of 1,000 posts at a time:
 * each waits for another process's write lock off the event loop, and the process answers its other
 * requests between them (20 transactions of ~100 ms for the demo corpus).
 */
export function removeDemoData(engine: Engine): Promise<DemoRemoval> {
  return removeSeededData(engine.db, {
    write: async (fn) => {
      await new Promise((resolve) => setImmediate(resolve));
      return whenWriteFree(engine.db, fn);
    },
  });
}
