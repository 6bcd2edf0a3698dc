import { describe, expect, it } from 'vitest';
import { apiKey, AUTHOR_ID, DETAIL_ID, writeApiCorpus } from '../fixtures/api-corpus';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';

// docs/api.md: "leading zeros are accepted". A 19-digit id written with a leading zero is 20
// characters; it used to be a 422 (issue 13, point 12). Now every id parameter reads it as the id.

describe('ids with leading zeros', () => {
  it('name the same post and user on every kind of path', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const server = await startServer(engine);
    const key = apiKey(engine);
    for (const path of [`/social/tweets/0${DETAIL_ID}`, `/twitter/tweets/00${DETAIL_ID}`, `/social/tweets/${'0'.repeat(21)}${DETAIL_ID}`]) {
      const r = await server.request(path, { key });
      expect([path, r.status]).toEqual([path, 200]);
      expect((r.json() as { id_str: string }).id_str).toBe(DETAIL_ID);
    }
    const user = await server.request(`/twitter/user/0${AUTHOR_ID}`, { key });
    expect(user.status).toBe(200);
    expect((user.json() as { id_str: string }).id_str).toBe(AUTHOR_ID);
    // Still bounded: more than 40 characters, or a value past 2^63 - 1, is a 422 naming the parameter.
    expect((await server.request(`/social/tweets/${'0'.repeat(30)}${DETAIL_ID}`, { key })).status).toBe(422);
    expect((await server.request('/social/tweets/09223372036854775808', { key })).status).toBe(422);
  });
});
