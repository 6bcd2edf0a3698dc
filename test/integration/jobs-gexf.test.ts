import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Graph from 'graphology';
import { parse } from 'graphology-gexf';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { createHandlers } from '../../src/main/engine/handlers';
import { EventHub } from '../../src/main/engine/handlers/event-hub';
import { getJob } from '../../src/main/engine/jobs';
import { apiKey } from '../fixtures/api-corpus';
import { unzipSingle } from '../fixtures/data-files';
import { testRunner } from '../fixtures/job-runner';
import { AT, NET, P, writeNetwork } from '../fixtures/network-corpus';
import { testEngine } from '../helpers/engine';
import { startServer, type TestServer } from '../helpers/http';

// output_format=gexf (issue 16): reply and search jobs over real HTTP and the runner's worker
// threads; each file fetched from its datafile_url, validated against the GEXF 1.3 schema
// (test/fixtures/gexf-1.3: the published RELAX NG grammar; its XSD does not compile, see
// SOURCE.md there) with libxml2 (xmllint-wasm), and read back with graphology-gexf. The edges are
// checked against the corpus (network-corpus.ts says which interaction makes which edge) and
// against SQL counts of the job's own rows.

const SCHEMA_DIR = join(__dirname, '../fixtures/gexf-1.3');
const schemaFile = (name: string) => ({ fileName: name, contents: readFileSync(join(SCHEMA_DIR, name), 'utf8') });

async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'export.gexf', contents: xml }],
    schema: [schemaFile('gexf.rng')],
    preload: [schemaFile('dynamics.rng'), schemaFile('viz.rng')],
    extension: 'relaxng',
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const REPLIES = `/social/tweets/${P.p1}/comments/asyncJob`;
const SEARCH = '/social/search/asyncJob';
const json = (body: Record<string, unknown>): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function start(server: TestServer, key: string, path: string, init: RequestInit = {}): Promise<number> {
  const res = await server.request(path, { method: 'POST', key, ...init });
  expect(res.status, res.text).toBe(200);
  return (res.json() as { job_id: number }).job_id;
}

interface Result {
  datafile_url: string;
  output_format: string;
  gexf_dynamic?: string;
  is_compressed: boolean;
  rows: number;
}

async function fetchFile(server: TestServer, key: string, jobId: number): Promise<{ text: string; type: string | null; result: Result }> {
  const body = (await server.request(`/jobs/${jobId}`, { key })).json() as { status: string; message?: string; result: Result };
  expect(body.status, body.message).toBe('success');
  const res = await fetch(body.result.datafile_url);
  expect(res.status).toBe(200);
  const buf = Buffer.from(await res.arrayBuffer());
  const data = body.result.is_compressed ? (await unzipSingle(buf)).data : buf;
  return { text: data.toString('utf8'), type: res.headers.get('content-type'), result: body.result };
}

type Attrs = Record<string, unknown>;
const read = (xml: string, undeclared = false) => parse(Graph, xml, { allowUndeclaredAttributes: undeclared });
const edgeList = (g: Graph) =>
  g
    .mapEdges((_e, a: Attrs, s, t) => `${s} -${String(a.kind)}-> ${t} x${String(a.weight)}`)
    .sort();

describe('output_format=gexf: the network of a job for Gephi', () => {
  it('a search job: every kind of edge, weighted and timed, valid GEXF 1.3 that a GEXF reader reads back', { timeout: 120_000 }, async () => {
    const engine = testEngine();
    writeNetwork(engine.db);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { batchRows: 3 });
    const jobId = await start(server, key, SEARCH, json({ query: 'network', max_count: 100, output_format: 'gexf' }));
    await runner.idle();
    const { text, type, result } = await fetchFile(server, key, jobId);
    expect(type).toBe('application/gexf+xml');
    expect(result).toMatchObject({ output_format: 'gexf', rows: 9 });
    expect(result.gexf_dynamic).toBeUndefined();
    expect(await schemaErrors(text)).toEqual([]);
    // The grammar does refuse what is not GEXF 1.3: an edge without a target, an unknown edge type.
    expect((await schemaErrors(text.replace(/ target="[^"]+"/, ''))).join('\n')).toMatch(/Relax-NG validity error/);
    expect((await schemaErrors(text.replace('defaultedgetype="directed"', 'defaultedgetype="sideways"'))).length).toBeGreaterThan(0);
    expect(text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<gexf xmlns="http:\/\/gexf\.net\/1\.3" version="1\.3">/);

    const g = read(text);
    expect(g.type).toBe('directed');
    const eve = '@eve_only';
    expect(g.nodes().sort()).toEqual([NET.alice, NET.bob, NET.carol, NET.dee, NET.unknownAuthor, NET.quotedFar, eve].sort());
    expect(edgeList(g)).toEqual(
      [
        `${NET.alice} -mention-> ${NET.bob} x1`, // p1
        `${NET.alice} -mention-> ${NET.dee} x1`, // p1, an account the corpus does not hold
        `${NET.alice} -mention-> ${eve} x1`, // p1, known by its screen name only
        `${NET.bob} -reply-> ${NET.alice} x2`, // p2 and p6; their "@alice" is the reply, not a mention
        `${NET.bob} -mention-> ${NET.carol} x1`, // p2
        `${NET.carol} -quote-> ${NET.alice} x1`, // p3
        `${NET.carol} -quote-> ${NET.quotedFar} x1`, // p4: the author of a post embedded only
        `${NET.bob} -retweet-> ${NET.alice} x1`, // p5; its "RT @alice" is the retweet
        `${NET.unknownAuthor} -mention-> ${NET.alice} x1`, // p7
        `${NET.alice} -reply-> ${NET.alice} x1`, // p8, a self-loop
      ].sort(),
    );
    // p9's damaged entities left it without edges, not the job without a file.

    // Attributes, typed as declared.
    const node = (id: string) => g.getNodeAttributes(id);
    expect(node(NET.alice)).toMatchObject({ label: 'alice', screen_name: 'alice', name: 'Alice A.', followers_count: 1200, statuses_count: 340, posts: 2, in_corpus: true });
    expect(node(NET.bob)).toMatchObject({ screen_name: 'bob', name: 'Bob 🎉', followers_count: 3_000_000_000, posts: 3, in_corpus: true });
    // XML-special characters, a tab and a line break come back as they were; XML 1.0 cannot carry U+0001.
    expect(node(NET.carol)).toMatchObject({ name: NET.carolName.replace('\u0001', ''), posts: 3 });
    expect(node(NET.dee)).toMatchObject({ label: 'dee', screen_name: 'dee', name: 'Dee Dee', posts: 0, in_corpus: false });
    expect(node(NET.dee)).not.toHaveProperty('followers_count');
    expect(node(eve)).toMatchObject({ label: 'eve_only', screen_name: 'eve_only', posts: 0, in_corpus: false });
    expect(node(NET.quotedFar)).toMatchObject({ screen_name: 'quoted_far', name: 'Far Away', in_corpus: false });
    expect(node(NET.unknownAuthor)).toMatchObject({ label: NET.unknownAuthor, posts: 1, in_corpus: false });
    const replyEdge = g.findEdge(NET.bob, NET.alice, (_e, a: Attrs) => a.kind === 'reply')!;
    expect(g.getEdgeAttributes(replyEdge)).toMatchObject({ weight: 2, first_at: AT.p2, last_at: AT.p6 });

    // Against SQL: the file's weights per kind add up to the interactions in the job's rows.
    const ids = [P.p1, P.p2, P.p3, P.p4, P.p5, P.p6, P.p7, P.p8, P.p9].join(',');
    const sum = (kind: string) => g.reduceEdges((n, _e, a: Attrs) => n + (a.kind === kind ? Number(a.weight) : 0), 0);
    const sql = (where: string) => engine.db.prepare(`SELECT count(*) FROM posts WHERE id IN (${ids}) AND ${where}`).pluck().get();
    expect(sum('reply')).toBe(sql('in_reply_to_user_id IS NOT NULL'));
    expect(sum('quote')).toBe(sql('quoted_status_id IS NOT NULL'));
    expect(sum('retweet')).toBe(sql('retweeted_status_json IS NOT NULL'));
    expect(new Set(g.mapNodes((_n, a: Attrs) => a.posts)).size).toBeGreaterThan(1);
    expect(g.reduceNodes((n, _id, a: Attrs) => n + Number(a.posts), 0)).toBe(result.rows);

    // What Gephi's importer needs to log nothing (ImporterGEXF, ImportContainerImpl): unique edge
    // ids, both ends of each edge declared as nodes (graphology refuses otherwise), weights above 0.
    const edgeIds = [...text.matchAll(/<edge id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(edgeIds).size).toBe(edgeIds.length);
    expect(g.everyEdge((_e, a: Attrs) => Number(a.weight) > 0)).toBe(true);
    expect(text).toContain(`<nodes count="7">`);
    expect(text).toContain(`<edges count="10">`);
  });

  it('a reply job, static and by day: edges get a spell and a weight in each day they happened', { timeout: 120_000 }, async () => {
    const engine = testEngine();
    writeNetwork(engine.db);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const runner = testRunner(engine, { batchRows: 2 });
    const ids = {
      static: await start(server, key, REPLIES, json({ output_format: 'gexf' })),
      day: await start(server, key, `${REPLIES}?output_format=GEXF&gexf_dynamic=Day`),
      byTrue: await start(server, key, REPLIES, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'output_format=gexf&gexf_dynamic=true&compress=true' }),
      hour: await start(server, key, REPLIES, json({ output_format: 'gexf', gexf_dynamic: 'hour' })),
    };
    await runner.idle();
    const stat = await fetchFile(server, key, ids.static);
    const day = await fetchFile(server, key, ids.day);
    const byTrue = await fetchFile(server, key, ids.byTrue);
    const hour = await fetchFile(server, key, ids.hour);
    for (const f of [stat, day, byTrue, hour]) expect(await schemaErrors(f.text)).toEqual([]);
    expect(day.result.gexf_dynamic).toBe('day');
    expect(byTrue.result).toMatchObject({ gexf_dynamic: 'day', is_compressed: true });
    expect(hour.result.gexf_dynamic).toBe('hour');
    expect(JSON.parse(getJob(engine.db, ids.day)!.params_json)).toMatchObject({ gexf_dynamic: 'day' });

    // Levels 1 and 2 under p1: p2, p6, p8, p10.
    const g = read(stat.text);
    expect(stat.result.rows).toBe(4);
    expect(edgeList(g)).toEqual(
      [`${NET.bob} -reply-> ${NET.alice} x2`, `${NET.alice} -reply-> ${NET.alice} x1`, `${NET.carol} -reply-> ${NET.bob} x1`, `${NET.bob} -mention-> ${NET.carol} x1`].sort(),
    );
    expect(g.order).toBe(3);
    expect(stat.text).toContain('<graph defaultedgetype="directed" idtype="string" mode="static">');

    // By day: a dynamic graph in UTC date-times; bob -> alice replied on 1 and 2 January.
    expect(day.text).toContain('<graph defaultedgetype="directed" idtype="string" mode="dynamic" timeformat="dateTime" timezone="UTC">');
    expect(day.text).toContain('<attributes class="edge" mode="dynamic">\n<attribute id="weight" title="weight" type="double"/>');
    const edge = /<edge [^>]*source="9100000000000000002" target="9100000000000000001" kind="reply" weight="2">.*?<\/edge>/.exec(day.text)![0];
    expect([...edge.matchAll(/<spell start="([^"]+)" end="([^"]+)"\/>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['2025-01-01T00:00:00.000Z', '2025-01-01T23:59:59.999Z'],
      ['2025-01-02T00:00:00.000Z', '2025-01-02T23:59:59.999Z'],
    ]);
    expect([...edge.matchAll(/<attvalue for="weight" value="(\d+)" start="([^"]+)"/g)].map((m) => [m[1], m[2]])).toEqual([
      ['1', '2025-01-01T00:00:00.000Z'],
      ['1', '2025-01-02T00:00:00.000Z'],
    ]);
    expect(edge).toContain(`<attvalue for="first_at" value="${AT.p2}"/><attvalue for="last_at" value="${AT.p6}"/>`);
    // gexf_dynamic=true is by day, and zipped it is the same document (but for the job's number in <meta>).
    const withoutMeta = (t: string) => t.replace(/<meta .*<\/meta>\n/, '');
    expect(withoutMeta(byTrue.text)).toBe(withoutMeta(day.text));
    expect(withoutMeta(day.text)).not.toBe(day.text);
    // By hour: the slices are hours (p2 at 11:00, p6 at 09:30).
    expect(hour.text).toContain('<spell start="2025-01-01T11:00:00.000Z" end="2025-01-01T11:59:59.999Z"/>');
    expect(hour.text).toContain('<spell start="2025-01-02T09:00:00.000Z" end="2025-01-02T09:59:59.999Z"/>');
    // Gephi refuses touching intervals: within an edge no spell starts before the previous ends.
    for (const f of [day, hour]) {
      for (const e of f.text.matchAll(/<spells>(.*?)<\/spells>/g)) {
        const spells = [...e[1]!.matchAll(/start="([^"]+)" end="([^"]+)"/g)].map((m) => [Date.parse(m[1]!), Date.parse(m[2]!)] as const);
        spells.forEach(([s, end], i) => {
          expect(end).toBeGreaterThan(s);
          if (i > 0) expect(s).toBeGreaterThan(spells[i - 1]![1]);
        });
      }
    }
    // A GEXF reader reads the dynamic file too (graphology keeps the last <attributes> block of a
    // class, so the static edge attributes come back undeclared: allowed here).
    const gd = read(day.text, true);
    expect(gd.size).toBe(g.size);
    expect(gd.order).toBe(g.order);
  });

  it('refuses an unknown format and the options of another format with 422, naming the parameter, creating no job', async () => {
    const engine = testEngine();
    writeNetwork(engine.db);
    const key = apiKey(engine);
    const server = await startServer(engine);
    const cases: [string, string, string, RegExp][] = [
      [SEARCH, 'query=network&output_format=graphml', 'output_format', /expected json, csv, xlsx, gexf or parquet, got 'graphml'/],
      [REPLIES, 'output_format=gexf&csv_dialect=plain', 'csv_dialect', /applies to output_format=csv only, and this job writes gexf/],
      [SEARCH, 'query=network&output_format=parquet&csv_dialect=excel', 'csv_dialect', /this job writes parquet/],
      [REPLIES, 'output_format=gexf&gexf_dynamic=month', 'gexf_dynamic', /expected hour, day, week, true \(day\) or false, got 'month'/],
      [REPLIES, 'output_format=parquet&gexf_dynamic=day', 'gexf_dynamic', /applies to output_format=gexf only, and this job writes parquet/],
      [SEARCH, 'query=network&gexf_dynamic=false', 'gexf_dynamic', /this job writes json/],
      [SEARCH, 'query=network&output_format=gexf&gexf_dynamic=day&gexf_dynamic=week', 'gexf_dynamic', /give it once/],
    ];
    for (const [path, qs, name, message] of cases) {
      const res = await server.request(`${path}?${qs}`, { method: 'POST', key });
      expect(res.status, qs).toBe(422);
      const body = res.json() as { status: string; message: string };
      expect(body.status).toBe('error');
      expect(body.message, qs).toContain(`'${name}'`);
      expect(body.message, qs).toMatch(message);
    }
    expect(engine.db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 0 });
    // gexf_dynamic=false with gexf is a static graph; empty is "not given".
    expect((await server.request(`${REPLIES}?output_format=gexf&gexf_dynamic=false`, { method: 'POST', key })).status).toBe(200);
    expect((await server.request(`${REPLIES}?output_format=parquet&gexf_dynamic=`, { method: 'POST', key })).status).toBe(200);
    const params = engine.db.prepare('SELECT params_json FROM jobs ORDER BY id').pluck().all() as string[];
    expect(params.map((p) => JSON.parse(p) as Record<string, unknown>).some((p) => 'gexf_dynamic' in p)).toBe(false);
  });

  it('the app starts a time-sliced GEXF job, lists it as such, and a retry keeps the slices; the preview shows its nodes', { timeout: 120_000 }, async () => {
    const engine = testEngine();
    writeNetwork(engine.db);
    const app = createHandlers(engine, { events: new EventHub(), mode: 'headless', apiUrl: () => 'http://127.0.0.1:7878' });
    const h = app.handlers;
    const runner = testRunner(engine, { mode: 'inline' });
    const { job_id } = await h['jobs.create']({ kind: 'replies', tweet_id: P.p1, output_format: 'gexf', gexf_dynamic: 'week' });
    expect((await h['jobs.get']({ job_id })).params).toMatchObject({ output_format: 'gexf', gexf_dynamic: 'week' });
    await runner.idle();
    const retried = await h['jobs.retry']({ job_id });
    expect((await h['jobs.get']({ job_id: retried.job_id })).params).toMatchObject({ output_format: 'gexf', gexf_dynamic: 'week' });
    // Weeks start on Mondays: 30 December 2024 holds both days.
    await runner.idle();
    const preview = await h['exports.preview']({ job_id, rows: 10 });
    expect(preview.columns).toEqual(['id', 'label', 'screen_name', 'name', 'followers_count', 'statuses_count', 'posts', 'in_corpus']);
    expect(preview.rows).toContainEqual([NET.carol, 'carol', 'carol', NET.carolName.replace('\u0001', ''), '5', '6', '1', 'true']);
    expect(preview.rows).toHaveLength(3);
    const file = (await h['exports.list']()).find((f) => f.job_id === job_id)!;
    expect(file.format).toBe('gexf');
    expect(readFileSync(file.path, 'utf8')).toContain('<spell start="2024-12-30T00:00:00.000Z" end="2025-01-05T23:59:59.999Z"/>');
    app.close();
  });
});
