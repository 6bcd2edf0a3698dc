import { describe, expect, it } from 'vitest';
import { seedCorpus } from '../../src/main/engine/corpus/seed';
import { readTimeline, readTimelineJson, type TimelineKind } from '../../src/main/engine/reads';
import { toJson } from '../../src/main/engine/serialize/json';
import { testEngine } from '../helpers/engine';

// The HTTP answer of a timeline page is written by SQLite (readTimelineJson, issue 17); the app's
// reads and the upstream gateway use readTimeline's objects. Both must give the same page.

describe('readTimelineJson', () => {
  it('writes every page of every timeline as toJson(readTimeline(...)) does, cursors included', () => {
    const engine = testEngine();
    const tour = seedCorpus(engine.db, { scale: 'small', seed: 3 });
    const users = engine.db.prepare('SELECT id FROM social_users WHERE protected = 0 ORDER BY id').safeIntegers(true).pluck().all() as bigint[];
    let pages = 0;
    for (const id of users) {
      for (const kind of ['tweets', 'tweets-and-replies'] as TimelineKind[]) {
        let cursor: string | undefined;
        for (;;) {
          const objects = readTimeline(engine, kind, id.toString(), cursor);
          const text = readTimelineJson(engine, kind, id.toString(), cursor);
          expect(text.json).toBe(toJson(objects.value));
          expect(text.items).toBe(objects.items);
          pages++;
          if (!objects.value.next_cursor) break;
          cursor = objects.value.next_cursor;
        }
      }
    }
    expect(pages).toBeGreaterThan(200);
    // The same refusals: a protected account (403), an unknown one (404), a cursor of another user (422).
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    const prot = tour.protected_user.id_str;
    expect(refusal(() => readTimelineJson(engine, 'tweets', prot))).toMatch(/protected/);
    expect(refusal(() => readTimelineJson(engine, 'tweets', prot))).toBe(refusal(() => readTimeline(engine, 'tweets', prot)));
    expect(refusal(() => readTimelineJson(engine, 'tweets', '42'))).toMatch(/User 42 was not found/);
    const first = readTimeline(engine, 'tweets', users[0]!.toString()).value.next_cursor;
    expect(refusal(() => readTimelineJson(engine, 'tweets', users[1]!.toString(), first))).toBe(refusal(() => readTimeline(engine, 'tweets', users[1]!.toString(), first)));
  });
});
