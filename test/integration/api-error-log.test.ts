import { describe, expect, it } from 'vitest';
import { createKey } from '../../src/main/engine/keys';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { writeApiCorpus } from '../fixtures/api-corpus';

// A 500 is logged with its request id and cause, and the client's answer names the request id, so
// the two can be matched; the log line holds neither the key nor the query.
describe('5xx answers are logged', () => {
  it('writes one line per 500 with request id, route and cause, and no key or query', async () => {
    const engine = testEngine();
    writeApiCorpus(engine);
    const lines: string[] = [];
    const server = await startServer(engine, { errorLog: (line) => lines.push(line) });
    const { key } = createKey(engine, 'script');
    // A real fault in the store, as a damaged database gives: the full-text index is gone.
    engine.db.exec('DROP TABLE posts_fts');
    const r = await server.request('/social/search?query=secretword', { key });
    expect(r.status).toBe(500);
    const message = (r.json() as { status: string; message: string }).message;
    const requestId = /\(request (\S+), in Skein's log\)/.exec(message)?.[1];
    expect(requestId).toBeTruthy();
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(logged).toMatchObject({ level: 'error', request_id: requestId, method: 'GET', route: '/social/search' });
    expect(String(logged.error)).toContain('posts_fts');
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).not.toContain('secretword');
    // A client's mistake is not an error of ours: nothing more is logged.
    expect((await server.request('/social/tweets/abc', { key })).status).toBe(422);
    expect(lines).toHaveLength(1);
  });
});
