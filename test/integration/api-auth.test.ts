import { describe, expect, it } from 'vitest';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { DETAIL_ID, fund, writeApiCorpus } from '../fixtures/api-corpus';
import { createKey, listKeys, revokeKey } from '../../src/main/engine/keys';

const SPEC_PATHS = [
  `/social/tweets/${DETAIL_ID}`,
  `/social/statuses/show?id=${DETAIL_ID}`,
  `/social/article/${DETAIL_ID}`,
  '/social/spaces/show?id=abc',
  '/spaces/show?id=abc',
  '/social/user/1/tweets',
  '/social/user/1/tweets-and-replies',
];

async function setup() {
  const engine = testEngine();
  writeApiCorpus(engine);
  return { engine, server: await startServer(engine) };
}

describe('Bearer keys on every spec endpoint (section 5)', () => {
  it('401 with the spec body for a missing, malformed, unknown or revoked key, on every endpoint', async () => {
    const { engine, server } = await setup();
    const revoked = createKey(engine, 'gone');
    revokeKey(engine, revoked.prefix);
    const cases: [string, Record<string, string>, RegExp][] = [
      ['missing', {}, /Missing API key/],
      ['basic', { authorization: 'Basic dXNlcjpwYXNz' }, /Malformed/],
      ['bare', { authorization: 'Bearer' }, /Malformed/],
      ['unknown', { authorization: `Bearer sk_${'0'.repeat(48)}` }, /Unknown API key/],
      ['shape', { authorization: 'Bearer not-a-key' }, /Unknown API key/],
      ['revoked', { authorization: `Bearer ${revoked.key}` }, /revoked/],
    ];
    for (const path of SPEC_PATHS) {
      for (const [name, headers, message] of cases) {
        const res = await server.request(path, { headers });
        expect(res.status, `${name} ${path}`).toBe(401);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const body = res.json() as { status: string; message: string };
        expect(Object.keys(body)).toEqual(['status', 'message']);
        expect(body.status).toBe('error');
        expect(body.message).toMatch(message);
      }
    }
  });

  it('a valid key passes, scheme case-insensitive; the key is stored only as a hash', async () => {
    const { engine, server } = await setup();
    const { key, user } = createKey(engine, 'notebook');
    fund(engine, user.id);
    expect(key).toMatch(/^sk_[0-9a-f]{48}$/);
    expect(user.created).toBe(true);
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const res = await server.request(`/social/tweets/${DETAIL_ID}`, { headers: { authorization: `${scheme} ${key}` } });
      expect(res.status).toBe(200);
    }
    const dump = JSON.stringify(engine.db.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(11));
  });

  it('a second key for the same name joins the same user; revoking one leaves the other working', async () => {
    const { engine, server } = await setup();
    const a = createKey(engine, 'lab');
    const b = createKey(engine, 'LAB');
    fund(engine, a.user.id);
    expect(b.user).toEqual({ id: a.user.id, name: 'lab', created: false });
    revokeKey(engine, a.key);
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key: a.key })).status).toBe(401);
    expect((await server.request(`/social/tweets/${DETAIL_ID}`, { key: b.key })).status).toBe(200);
    const lab = listKeys(engine.db).find((u) => u.name === 'lab')!;
    expect(lab.keys.map((k) => k.revokedAtMs !== null)).toEqual([true, false]);
    expect(lab.keys[1]!.lastUsedAtMs).toBe(engine.clock.nowMs());
    // Revoking twice is not an error.
    expect(revokeKey(engine, String(a.keyId)).revokedNow).toBe(false);
  });

  it('unknown paths are 404 in the spec body with or without a key', async () => {
    const { engine, server } = await setup();
    const { key } = createKey(engine, 'x');
    for (const k of [undefined, key]) {
      const res = await server.request('/social/nope', k ? { key: k } : {});
      expect(res.status).toBe(404);
      expect((res.json() as { status: string }).status).toBe('error');
    }
  });
});
