import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/main/engine/keys';
import { testEngine } from '../helpers/engine';
import { startServer } from '../helpers/http';
import { apiKey } from '../fixtures/api-corpus';
import { testRunner } from '../fixtures/job-runner';
import { ROOT_ID, writeConversation } from '../fixtures/jobs-corpus';

// The data file URL is a capability: the right token and name serve the file without a key;
// anything else is the same 404 in the spec's error body. Webhook settings over HTTP.

describe('data file URLs', () => {
  it('serve the file with its type and name to anyone holding the URL, and nothing to a guess', async () => {
    const engine = testEngine();
    writeConversation(engine.db, 3, 1);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { mode: 'inline' });
    const res = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob?output_format=csv&compress=true`, { method: 'POST', key });
    const jobId = (res.json() as { job_id: number }).job_id;
    await runner.idle();
    const { result } = (await server.request(`/jobs/${jobId}`, { key })).json() as { result: { datafile_url: string } };
    const url = new URL(result.datafile_url);
    const [, , token, name] = url.pathname.split('/');
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect(name).toBe(`replies-${ROOT_ID}-job${jobId}.csv.zip`);

    const ok = await fetch(result.datafile_url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/zip');
    expect(Number(ok.headers.get('content-length'))).toBe((await ok.arrayBuffer()).byteLength);

    const head = await fetch(result.datafile_url, { method: 'HEAD' });
    expect(head.status).toBe(200);

    for (const path of [`/datafiles/${'0'.repeat(48)}/${name}`, `/datafiles/${token}/other.csv`, `/datafiles/xyz/${name}`]) {
      const r = await server.request(path);
      expect(r.status, path).toBe(404);
      expect(r.json()).toEqual({ status: 'error', message: 'No such data file.' });
    }
    // The host check applies to data files too (DNS rebinding).
    const foreign = await new Promise<number>((resolve, reject) => {
      get({ host: '127.0.0.1', port: Number(url.port), path: url.pathname, headers: { host: 'evil.example' } }, (r) => {
        r.resume();
        resolve(r.statusCode!);
      }).on('error', reject);
    });
    expect(foreign).toBe(403);
  });

  it("stop working once their user's keys are all revoked", async () => {
    const engine = testEngine();
    writeConversation(engine.db, 3, 1);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { mode: 'inline' });
    const res = await server.request(`/social/tweets/${ROOT_ID}/comments/asyncJob?output_format=csv`, { method: 'POST', key });
    const jobId = (res.json() as { job_id: number }).job_id;
    await runner.idle();
    const { result } = (await server.request(`/jobs/${jobId}`, { key })).json() as { result: { datafile_url: string } };
    expect((await fetch(result.datafile_url)).status).toBe(200);
    revokeKey(engine, key);
    const gone = await fetch(result.datafile_url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      status: 'error',
      message: `This data file's URL was revoked with its user's API keys; the file of job ${jobId} is still in the exports folder (the app's Exports).`,
    });
  });
});

describe('webhook settings over HTTP', () => {
  it('PUT /webhooks sets and clears the URL of the key\'s user; GET shows it with the deliveries', async () => {
    const engine = testEngine();
    const key = apiKey(engine);
    const server = await startServer(engine);
    const put = (body: unknown) => server.request('/webhooks', { method: 'PUT', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // No keychain in this engine: the secret is kept in the database, and the answer says so.
    expect((await put({ url: 'https://example.org/hook', secret: 'x'.repeat(20) })).json()).toEqual({ url: 'https://example.org/hook', hasSecret: true, secretKeptIn: 'database' });
    expect((await server.request('/webhooks', { key })).json()).toEqual({ url: 'https://example.org/hook', hasSecret: true, secretKeptIn: 'database', deliveries: [] });
    const bad = await put({ url: 'javascript:alert(1)' });
    expect(bad.status).toBe(422);
    expect((bad.json() as { message: string }).message).toContain("'url'");
    expect((await put({ url: null, secret: null })).json()).toEqual({ url: null, hasSecret: false, secretKeptIn: null });
    expect((await server.request('/webhooks', {})).status).toBe(401);
  });
});
