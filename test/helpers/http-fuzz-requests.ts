import type { Prng } from './prng';
import { ARTICLE_ID, AUTHOR_ID, DETAIL_ID, OTHER_ID, OTHER_POST_ID, PROTECTED_ID, REPLY_ID, SPACE_ID } from '../fixtures/api-corpus';
import { ROOT_ID } from '../fixtures/jobs-corpus';

// Seeded raw HTTP requests over every route of the local API (test/sim/http-fuzz.sim.test.ts):
// mostly well-aimed (a real route, a real key, real ids) so they get past the host check, auth and
// parsing into the routes, each with a fault drawn from the lists below: path and query values,
// job bodies, headers, methods, request forms. Built as bytes, so anything can be sent.

export interface FuzzContext {
  port: number;
  keys: { rich: string; poor: string; slow: string; revoked: string };
  /** Real next_cursor values (timeline and search pages). */
  cursors: string[];
  /** Ids of the jobs created so far. */
  jobIds: number[];
  /** `/datafiles/<token>/<name>` of a finished job. */
  datafile: string;
  inboxToken: string;
}

export interface FuzzRequest {
  bytes: Buffer;
  /** The request as text, cut to a readable length, for a failure message. */
  summary: string;
  method: string;
  /** The request line's HTTP version. */
  version: string;
  /** Half-close once sent: a body shorter than its Content-Length then ends at the socket's end. */
  end: boolean;
  /** Why this request must not be served (a foreign or missing Host, a cross-site browser request). */
  mustRefuse?: string;
}

const KNOWN_IDS = [DETAIL_ID, REPLY_ID, ARTICLE_ID, AUTHOR_ID, PROTECTED_ID, OTHER_ID, OTHER_POST_ID, String(ROOT_ID), '1800000000000000030'];
const ODD_IDS = [
  '0', '1', '-1', '+1', '007', `000${DETAIL_ID}`, `${'0'.repeat(30)}1`, '9223372036854775807', '9223372036854775808', '18446744073709551616',
  '99999999999999999999', '1'.repeat(25), '1e5', '0x10', '1.0', '1,2', '%201', '%EF%BC%91%EF%BC%92', '%00', '%zz', '%ff', '%', '%2F', '%2e%2e',
  '..', '.', 'null', 'undefined', 'NaN', 'Infinity', '[]', '%7B%7D', '%F0%9F%92%A5', 'a'.repeat(300), '1'.repeat(257), SPACE_ID, 'user6789',
  '%40user6789', 'id', '%0A', '%0D%0A', '%22', '%27', '%3Cscript%3E',
];
const SEARCH_QUERIES = [
  'Post', 'mentions', 'from:user6789', `conversation_id:${ROOT_ID}`, 'fox OR foxes', '"The root"', '#tag0', '#tag1', 'lang:en', 'since:2024-01-01',
  'min_faves:3', 'min_faves:abc', '(', ')', '((a)', 'NOT', '-', 'OR', '"', 'from:', 'lang:', 'until:2024-13-45', 'since_id:abc', 'max_id:1',
  'café 東京', 'a'.repeat(1100), '*', '\\', '%', '\u0000', '🎉', 'conversation_id:-1', 'filter:replies', 'min_retweets:99999999999999999999',
];
const FORMATS = ['csv', 'json', 'xlsx', 'CSV', 'Json', 'XLSX', 'pdf', '', 'csv ', 'xls'];
const COUNTS = ['1', '3', '20', '0', '-1', '10000000', '10000001', '1.5', '1e3', 'abc', '', '99999999999999999999', '007', ' 5'];
const BOOLS = ['true', 'false', '1', '0', 'yes', '', 'TRUE', 'null'];
const TYPES = ['Latest', 'Top', 'latest', 'TOP', '', 'Oldest', '1'];
const JOB_PARAMS = ['query', 'type', 'since_id', 'max_id', 'max_count', 'compress', 'output_format'];
const REPLY_JOB_PARAMS = ['since_id', 'max_count', 'compress', 'output_format'];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'bogus', '', 'query ', 'QUERY', 'id[]', 'id[a]', '__defineGetter__'];
const JSON_NUMBERS = ['0', '1', '-1', '1.5', '-0', '1e3', '1e400', '-1e400', '9007199254740993', '12345678901234567890123', '1.8000000000000000001e18', '0.0000001'];
const CONTENT_TYPES = [
  'application/json', 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1',
  'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', 'application/vnd.api+json', '', '%%%', 'application/octet-stream',
  'application/json, text/plain', 'application/xml',
];
const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'get', 'BREW', 'M-SEARCH', 'PROPFIND', 'QUERY'];
const VERSIONS = ['HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1 x', 'HTTP/11'];

type BodyKind = 'search' | 'replies' | 'webhook' | 'any';

interface Shape {
  method: string;
  path: () => string;
  body?: BodyKind;
}

export function fuzzRequest(r: Prng, ctx: FuzzContext): FuzzRequest {
  // Mostly percent-encoded, as a client should; now and then raw (a request line with a space or a
  // control character in it is malformed, which the server must answer too).
  const enc = (s: string) => (r.chance(0.97) ? encodeURIComponent(s) : s);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(16)]).join('');
  const textOf = (alphabet: string[]) => (max: number) => Array.from({ length: r.int(max + 1) }, () => r.pick(alphabet)).join('');
  const printable = ['a', 'Z', '0', '9', ' ', '-', '_', '.', '~', '%', '&', '=', '?', '#', '/', '\\', '"', "'", '<', '>', ',', ';', ':'];
  const randomText = textOf([...printable, 'é', '東', '🎉', '\u0000', '\n', '\t', '\u202e', '\ufeff']);
  /** What a header value may hold (visible ASCII, space, and UTF-8 bytes as obs-text). */
  const headerText = textOf([...printable, 'é', '東']);
  const id = () => {
    const roll = r.next();
    if (roll < 0.6) return r.pick(KNOWN_IDS);
    if (roll < 0.8) return r.pick(ODD_IDS);
    if (roll < 0.88) return Array.from({ length: 1 + r.int(30) }, () => String(r.int(10))).join('');
    if (roll < 0.92) return '0'.repeat(1 + r.int(5)) + r.pick(KNOWN_IDS);
    return encodeURIComponent(randomText(12));
  };
  /** A timeline's user: the corpus's author (30 posts), another, the protected one, or any id. */
  const userId = () => (r.chance(0.6) ? r.pick([AUTHOR_ID, AUTHOR_ID, AUTHOR_ID, OTHER_ID, PROTECTED_ID, `00${AUTHOR_ID}`]) : id());
  const cursor = () => {
    const roll = r.next();
    if (roll < 0.4 && ctx.cursors.length) return encodeURIComponent(r.pick(ctx.cursors));
    if (roll < 0.6 && ctx.cursors.length) {
      const c = r.pick(ctx.cursors);
      const i = r.int(c.length);
      return encodeURIComponent(c.slice(0, i) + r.pick(['A', '_', '-', '0', '=', '']) + c.slice(i + 1));
    }
    if (roll < 0.7) return '';
    return enc(randomText(60));
  };
  const valueFor = (name: string): string => {
    switch (name) {
      case 'id': case 'since_id': case 'max_id': case 'user_id': return r.chance(0.1) ? SPACE_ID : id();
      case 'cursor': return cursor();
      case 'query': return enc(r.chance(0.6) ? r.pick(SEARCH_QUERIES.slice(0, 8)) : r.pick(SEARCH_QUERIES));
      case 'type': return r.pick(TYPES);
      case 'max_count': return enc(r.pick(COUNTS));
      case 'compress': return r.pick(BOOLS);
      case 'output_format': return enc(r.pick(FORMATS));
      default: return enc(randomText(10));
    }
  };
  /** A query string: each of `names` with probability 0.7, sometimes repeated, unknown, or array-shaped. */
  const query = (names: string[]) => {
    const pairs: string[] = [];
    for (const n of names) {
      if (r.chance(0.7)) pairs.push(`${n}=${valueFor(n)}`);
      if (r.chance(0.06)) pairs.push(`${n}=${valueFor(n)}`);
      if (r.chance(0.03)) pairs.push(`${n}[]=${valueFor(n)}`);
    }
    if (r.chance(0.12)) pairs.push(`${enc(r.pick(ODD_KEYS))}=${valueFor('x')}`);
    if (r.chance(0.03)) pairs.push(r.pick(['', '&', '=', '==', 'a', '%zz=1', 'x=%zz', 'x=%']));
    if (r.chance(0.02)) pairs.push(`pad=${'p'.repeat(4100)}`);
    return pairs.length || r.chance(0.05) ? `?${pairs.join('&')}` : '';
  };
  const spaceId = () => (r.chance(0.6) ? SPACE_ID : r.pick([...ODD_IDS, 'x'.repeat(64), 'x'.repeat(65), '1YqKDqWqdPLx%2B', encodeURIComponent(randomText(8))]));
  const userRef = () => (r.chance(0.5) ? r.pick(KNOWN_IDS) : r.pick(['user6789', '%40user6789', 'USER6789', 'nobody', '_', 'a'.repeat(16), 'a'.repeat(65), ...ODD_IDS]));
  const jobId = () => (ctx.jobIds.length && r.chance(0.7) ? String(r.pick(ctx.jobIds)) : r.pick(['0', '1', '2', '-1', '007', '999999', 'abc', '1.5', '99999999999999999999', '%00', '1'.repeat(300)]));
  const garbagePath = () => {
    const segs = Array.from({ length: 1 + r.int(6) }, () =>
      r.pick(['social', 'twitter', 'user', 'tweets', 'statuses', 'show', 'article', 'spaces', 'space', 'jobs', 'comments', 'asyncJob', 'search', 'app', 'rpc',
        'datafiles', 'inbox', 'webhooks', '', '..', '.', '%00', '%2F', '%ff', '%', '%zz', '~', '*', ';', '%2e%2e', 'index.html', id()]));
    return `/${segs.join('/')}${query(['id', 'x'])}`;
  };

  const shapes: Shape[] = [
    { method: 'GET', path: () => `/social/user/${userId()}/${r.pick(['tweets', 'tweets-and-replies'])}${r.chance(0.5) ? '' : query(['cursor'])}` },
    { method: 'GET', path: () => `/social/statuses/show${query(['id'])}` },
    { method: 'GET', path: () => `/social/tweets/${id()}${query([])}` },
    { method: 'GET', path: () => `/social/article/${id()}` },
    { method: 'GET', path: () => `/${r.chance(0.5) ? 'social/' : ''}spaces/show${r.chance(0.8) ? `?id=${spaceId()}` : query(['id'])}` },
    { method: 'GET', path: () => `/social/search${r.chance(0.5) ? `?query=${valueFor('query')}` : query(['query', 'type', 'cursor'])}` },
    { method: 'GET', path: () => '/social/account' },
    { method: 'GET', path: () => '/user/balance' },
    { method: 'GET', path: () => `/twitter/user/${userRef()}` },
    { method: 'GET', path: () => `/twitter/user/${userId()}/${r.pick(['tweets', 'tweets-and-replies', 'followers', 'likes', 'mentions'])}${r.chance(0.5) ? '' : query(['cursor'])}` },
    { method: 'GET', path: () => `/twitter/tweets/${id()}${r.chance(0.2) ? r.pick(['/quotes', '/comments', '/liking_users']) : ''}` },
    { method: 'GET', path: () => `/twitter/${r.pick(['statuses/show', 'search'])}${query(['id', 'query', 'type', 'cursor'])}` },
    { method: 'GET', path: () => `/twitter/${r.pick(['article', 'space'])}/${r.chance(0.5) ? id() : spaceId()}` },
    { method: 'POST', path: () => `/twitter/users-by-${r.pick(['ids', 'usernames'])}`, body: 'any' },
    { method: 'POST', path: () => `/social/tweets/${id()}/comments/asyncJob${r.chance(0.2) ? query(REPLY_JOB_PARAMS) : ''}`, body: 'replies' },
    { method: 'POST', path: () => `/social/search/asyncJob${r.chance(0.2) ? query(JOB_PARAMS) : ''}`, body: 'search' },
    { method: 'POST', path: () => `/social/search/asyncJob${r.chance(0.2) ? query(JOB_PARAMS) : ''}`, body: 'search' },
    { method: 'GET', path: () => `/jobs/${jobId()}${query([])}` },
    { method: 'POST', path: () => `/jobs/${jobId()}/cancel`, body: 'any' },
    { method: 'GET', path: () => '/webhooks' },
    { method: 'PUT', path: () => '/webhooks', body: 'webhook' },
    { method: r.pick(['GET', 'POST']), path: () => '/webhooks/inboxes', body: 'any' },
    { method: r.pick(['GET', 'POST']), path: () => `/inbox/${r.chance(0.6) ? ctx.inboxToken : r.pick(['x', hex(48), '%00', '..', 'a'.repeat(300)])}`, body: 'any' },
    {
      method: 'GET',
      path: () => (r.chance(0.5) ? ctx.datafile : ctx.datafile.replace(/\/datafiles\/([0-9a-f]+)\/(.*)$/, (_m, t: string, n: string) =>
        `/datafiles/${r.chance(0.5) ? t : r.pick([hex(48), t.toUpperCase(), `${t}0`, '%00', '..'])}/${r.chance(0.5) ? n : r.pick(['x.csv', '..%2F..%2Fskein.db', '%2e%2e', n + '.zip', ''])}`)),
    },
    { method: 'GET', path: garbagePath },
  ];

  const shape = r.pick(shapes);
  // HEAD of a GET route runs the GET's handler (and is charged as it): a tenth of them.
  let method = r.chance(0.92) ? (shape.method === 'GET' && r.chance(0.1) ? 'HEAD' : shape.method) : r.pick(OTHER_METHODS);
  let target = shape.path();

  // The request line's forms: absolute-form (whose host must be loopback too), '*', CONNECT's authority.
  const form = r.next();
  if (method === 'CONNECT') target = r.pick([`127.0.0.1:${ctx.port}`, 'example.com:443', target]);
  else if (form < 0.04) target = `http://${r.pick([`127.0.0.1:${ctx.port}`, 'localhost', 'evil.example', `evil.example:${ctx.port}`])}${target}`;
  else if (form < 0.05) target = '*';
  let mustRefuse = target.startsWith('http://evil.example') ? 'the target names a foreign host' : undefined;
  // Raw bytes a client should have encoded.
  if (r.chance(0.03)) {
    const i = r.int(target.length + 1);
    target = target.slice(0, i) + r.pick(['\u0000', ' ', '\t', '\u007f', 'é', '東', '#', '"', '<', '\\', '\r', '%']) + target.slice(i);
  }
  const version = r.chance(0.97) ? 'HTTP/1.1' : r.pick(VERSIONS);

  const lines: string[] = [];
  // Host: our own almost always, else a foreign or odd one, none, or two.
  const ownHost = `127.0.0.1:${ctx.port}`;
  const hostRoll = r.next();
  if (hostRoll < 0.92) lines.push(`Host: ${r.pick([ownHost, ownHost, ownHost, `localhost:${ctx.port}`, `[::1]:${ctx.port}`, `LOCALHOST:${ctx.port}`, '127.0.0.1', '127.0.0.1:99999'])}`);
  else if (hostRoll < 0.96) {
    lines.push(`Host: ${r.pick(['evil.example', `evil.example:${ctx.port}`, '127.0.0.1.nip.io', '0.0.0.0', '10.0.0.5', '', 'localhost.evil.example', '[::2]', 'ｌｏｃａｌｈｏｓｔ'])}`);
    mustRefuse = 'the Host is not a loopback name';
  } else if (hostRoll < 0.985) {
    lines.push(`Host: ${ownHost}`, `Host: ${r.pick(['evil.example', ownHost, 'localhost'])}`);
    mustRefuse = 'it has two Host headers';
  } else mustRefuse = 'it has no Host header';

  // Authorization: one of the users' keys almost always, else something broken.
  const keyRoll = r.next();
  const userKey = r.next() < 0.75 ? ctx.keys.rich : r.pick([ctx.keys.poor, ctx.keys.slow, ctx.keys.revoked]);
  if (keyRoll < 0.9) lines.push(`Authorization: Bearer ${userKey}`);
  else if (keyRoll < 0.98) {
    lines.push(`Authorization: ${r.pick([
      '', 'Bearer', 'Bearer ', `bearer ${userKey}`, `Bearer  ${userKey}`, `Bearer ${userKey} `, `Bearer ${userKey}x`, `Bearer ${userKey.toUpperCase()}`,
      'Basic dXNlcjpwYXNz', `Bearer sk_${hex(48)}`, `Bearer ${'a'.repeat(5000)}`, `Token ${userKey}`, `Bearer ${userKey.slice(0, -1)}`, 'Bearer sk_',
      `Bearer\t${userKey}`, `Bearer ${userKey},${userKey}`,
    ])}`);
  } else lines.push(`Authorization: Bearer ${userKey}`, `Authorization: ${r.pick([`Bearer ${ctx.keys.revoked}`, 'Bearer x', `Bearer ${userKey}`])}`);

  if (r.chance(0.06)) {
    const origin = r.pick(['https://evil.example', 'null', `http://${ownHost}`, `https://${ownHost}`, 'http://localhost:1', '', 'http://127.0.0.1']);
    lines.push(`Origin: ${origin}`);
    if (['https://evil.example', 'null', 'http://localhost:1'].includes(origin)) mustRefuse ??= `Origin: ${origin} is another site`;
  }
  if (r.chance(0.04)) {
    const site = r.pick(['cross-site', 'same-site', 'same-origin', 'none', 'CROSS-SITE', 'garbage', '']);
    lines.push(`Sec-Fetch-Site: ${site}`);
    if (site.toLowerCase() === 'cross-site') mustRefuse ??= 'Sec-Fetch-Site says cross-site';
  }
  if (r.chance(0.5)) lines.push(`Accept: ${r.pick(['application/json', '*/*', 'text/html', '', 'application/xml'])}`);
  if (r.chance(0.12)) {
    lines.push(`Idempotency-Key: ${r.chance(0.75) ? `fuzz-${r.int(40)}` : r.pick(['a b', 'x'.repeat(151), '', 'é', '\t', 'k\u0001'])}`);
  }
  if (r.chance(0.05)) lines.push(`Cookie: ${r.pick([`skein-app-${ctx.port}=${hex(64)}`, 'a=b; c', '=', headerText(30)])}`);
  if (r.chance(0.05)) lines.push(r.pick(['X-Forwarded-Host: evil.example', 'X-Forwarded-For: 10.0.0.1', 'Forwarded: host=evil.example', 'X-Real-IP: 1.2.3.4']));
  if (r.chance(0.02)) lines.push(`Expect: ${r.pick(['100-continue', 'magic'])}`);
  if (r.chance(0.04)) lines.push(`X-${r.pick(['Junk', 'a', 'Skein-App', 'Http2-Settings', 'HTTP-Method-Override'])}: ${headerText(40)}`);
  if (r.chance(0.015)) lines.push(r.pick(['no-colon-here', ' folded continuation', 'X-Ctl: a\u0001b', 'Bad Name: x', ': empty name', 'X-Ü: x', `X-Nul: ${randomText(20)}`, `X-Huge: ${'h'.repeat(17 * 1024)}`]));

  // A body, for any method but mostly where the route reads one.
  let body: Buffer | undefined;
  let contentType: string | undefined;
  if (method !== 'GET' && method !== 'HEAD' ? r.chance(0.85) : r.chance(0.03)) {
    [body, contentType] = fuzzBody(r, shape.body ?? 'any', valueFor, randomText);
    if (r.chance(0.08)) contentType = r.pick(CONTENT_TYPES);
  }
  if (contentType !== undefined) lines.push(`Content-Type: ${contentType}`);
  let end = false;
  let payload = body ?? Buffer.alloc(0);
  if (body !== undefined) {
    const framing = r.next();
    if (framing < 0.9) lines.push(`Content-Length: ${body.length}`);
    else if (framing < 0.95) {
      lines.push('Transfer-Encoding: chunked');
      payload = chunked(body, 1 + r.int(64));
    } else if (framing < 0.97) {
      // Longer than what is sent: the request ends at the socket's end.
      lines.push(`Content-Length: ${body.length + 1 + r.int(10)}`);
      end = true;
    } else if (framing < 0.98 && body.length > 1) {
      // Shorter: the rest of the body is read as a next request on the connection.
      lines.push(`Content-Length: ${r.int(body.length)}`);
    } else lines.push(`Content-Length: ${r.pick(['-1', 'abc', '1, 2', `${body.length}, ${body.length}`, '99999999999999999999'])}`);
  }
  lines.push('Connection: close');
  if (r.chance(0.02)) method = r.pick(['GE T', '', 'G\u0000T', 'GET\t']);

  const head = Buffer.from(`${method} ${target} ${version}\r\n${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  // Now and then not HTTP at all.
  const bytes = r.chance(0.01) ? Buffer.concat([Buffer.from(Array.from({ length: 1 + r.int(200) }, () => r.int(256))), Buffer.from('\r\n\r\n')]) : Buffer.concat([head, payload]);
  const shown = bytes.toString('utf8');
  return { bytes, method, version, end, mustRefuse, summary: JSON.stringify(shown.length > 600 ? `${shown.slice(0, 600)}... (${bytes.length} bytes)` : shown) };
}

function chunked(body: Buffer, size: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) {
    const piece = body.subarray(i, i + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** A request body and its content type: job parameters (often nearly right), a webhook setting, or junk. */
function fuzzBody(r: Prng, kind: BodyKind, valueFor: (name: string) => string, randomText: (max: number) => string): [Buffer, string | undefined] {
  const roll = r.next();
  const job = kind === 'search' || kind === 'replies';
  const params = kind === 'replies' ? REPLY_JOB_PARAMS : JOB_PARAMS;
  if (job && roll < 0.7) return [Buffer.from(jobJson(r, params, randomText)), 'application/json'];
  if (job && roll < 0.8) {
    const pairs = params.filter(() => r.chance(0.5)).map((n) => `${n}=${valueFor(n)}`);
    if (r.chance(0.2)) pairs.push(`${encodeURIComponent(r.pick(ODD_KEYS))}=1`);
    return [Buffer.from(pairs.join('&')), 'application/x-www-form-urlencoded'];
  }
  if (kind === 'webhook' && roll < 0.6) {
    const url = r.pick(['http://127.0.0.1:9/hook', 'https://127.0.0.1:9/', 'ftp://x', 'javascript:alert(1)', '', 'not a url', 'http://', 'http://[::1', 'x'.repeat(3000)]);
    const fields = [r.chance(0.8) ? `"url":${r.chance(0.8) ? JSON.stringify(url) : r.pick(['null', '1', '[]', '{}', 'true'])}` : '',
      r.chance(0.4) ? `"secret":${r.pick(['"short"', JSON.stringify('s'.repeat(20)), JSON.stringify('s'.repeat(5000)), 'null', '1', '""'])}` : ''];
    return [Buffer.from(`{${fields.filter(Boolean).join(',')}}`), 'application/json'];
  }
  const junk = r.next();
  if (junk < 0.15) {
    // Deep nesting, as the body or as one parameter's value (a recursive reader overflows the stack).
    const n = r.pick([100, 5_000, 100_000, 300_000]);
    const [open, close] = r.pick([['[', ']'], ['{"a":', '}'], ['{"query":', '}']]);
    const nested = open!.repeat(n) + '1' + close!.repeat(n);
    const name = r.pick(params);
    return [Buffer.from(r.chance(0.5) ? nested : `{"query":"Post",${JSON.stringify(name)}:${nested}}`), 'application/json'];
  }
  if (junk < 0.3) {
    const text = jobJson(r, params, randomText);
    return [Buffer.from(text.slice(0, r.int(text.length))), 'application/json'];
  }
  if (junk < 0.4) return [Buffer.from(r.pick(['null', '[]', '"text"', '123', 'true', '{}', '[{"query":"x"}]', '{"query":"a","query":"b"}', '\ufeff{"query":"Post"}', ' '])), 'application/json'];
  if (junk < 0.48) return [Buffer.from([0x7b, 0x22, 0x71, 0xff, 0xfe, 0x22, 0x3a, 0xc0, 0x80, 0x7d]), 'application/json'];
  if (junk < 0.52) return [Buffer.alloc(1024 * 1024 + 10 + r.int(1000), 0x61), r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded'])];
  if (junk < 0.7) return [Buffer.from(randomText(200)), r.pick(CONTENT_TYPES)];
  if (junk < 0.8) return [Buffer.alloc(0), r.chance(0.5) ? 'application/json' : undefined];
  return [Buffer.from(jobJson(r, params, randomText)), r.pick(CONTENT_TYPES)];
}

/** A JSON object of job parameters as text (so numbers can be any JSON number, 1e400 included). */
function jobJson(r: Prng, params: string[], randomText: (max: number) => string): string {
  const value = (depth: number): string => {
    const roll = r.next();
    if (roll < 0.3) return JSON.stringify(r.pick([...SEARCH_QUERIES.slice(0, 12), ...FORMATS, ...TYPES, ...COUNTS, randomText(20)]));
    if (roll < 0.5) return r.pick(JSON_NUMBERS);
    if (roll < 0.6) return r.pick(['true', 'false', 'null']);
    if (depth > 2) return '0';
    if (roll < 0.8) return `[${Array.from({ length: r.int(3) }, () => value(depth + 1)).join(',')}]`;
    return `{${Array.from({ length: r.int(3) }, () => `${JSON.stringify(r.pick([...JOB_PARAMS, ...ODD_KEYS]))}:${value(depth + 1)}`).join(',')}}`;
  };
  const good: Record<string, () => string> = {
    query: () => JSON.stringify(r.pick(SEARCH_QUERIES.slice(0, 12))),
    type: () => JSON.stringify(r.pick(['Latest', 'Top'])),
    since_id: () => JSON.stringify(r.pick(KNOWN_IDS)),
    max_id: () => (r.chance(0.5) ? r.pick(KNOWN_IDS) : JSON.stringify(r.pick(KNOWN_IDS))),
    max_count: () => r.pick(['1', '3', '5', '"2"']),
    compress: () => r.pick(['true', 'false', '"true"']),
    output_format: () => JSON.stringify(r.pick(['csv', 'json', 'xlsx'])),
  };
  const fields: string[] = [];
  for (const p of params) {
    if (p === 'query' ? r.chance(0.92) : r.chance(0.35)) fields.push(`${JSON.stringify(p)}:${r.chance(0.88) ? good[p]!() : value(0)}`);
  }
  if (r.chance(0.08)) fields.push(`${JSON.stringify(r.pick(ODD_KEYS))}:${value(0)}`);
  if (r.chance(0.05)) fields.push(`"__proto__":{"query":"Post","max_count":3,"bogus":1}`);
  // Valid jobs mostly collect a few rows: the end of the run executes every job it created.
  return `{${fields.join(',')}}`;
}
