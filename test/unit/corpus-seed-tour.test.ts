import { describe, expect, it } from 'vitest';
import { generateCorpus, type SeedSink } from '../../src/main/engine/corpus/seed';

// The demo tour links to posts the app opens: none of them may be a protected account's post,
// whose details answer 404 (docs/decisions.md "Search: protected accounts"). Seed 30 once picked a
// protected account's wallet reply.

function tourPostsByProtected(seed: number): string[] {
  const authorOf = new Map<string, { protected?: boolean }>();
  const sink: SeedSink = {
    user: () => {},
    tweet: (t) => void authorOf.set(t.id_str as string, t.user as { protected?: boolean }),
    article: (a) => void authorOf.set(a.id_str as string, a.user as { protected?: boolean }),
    space: () => {},
  };
  const tour = generateCorpus({ scale: 'small', seed }, sink) as unknown as Record<string, { id_str?: string }>;
  return Object.entries(tour)
    .filter(([key, stop]) => key !== 'protected_user' && key !== 'small_id_user' && typeof stop === 'object' && stop?.id_str !== undefined)
    .filter(([, stop]) => authorOf.get(stop.id_str!)?.protected === true)
    .map(([key]) => key);
}

describe('the demo tour', () => {
  it('points at no protected account\'s post (seeds 1, 7 and 30)', () => {
    for (const seed of [1, 7, 30]) expect(tourPostsByProtected(seed), `seed ${seed}`).toEqual([]);
  });
});
