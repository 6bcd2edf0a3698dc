import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail } from '../errors';

// Opaque, tamper-evident tokens for cursors (timelines, search): a fixed binary body whose first
// byte is a version, followed by an HMAC-SHA256 truncated to 128 bits (ample against forgery at
// localhost request rates) under a per-data-dir secret, all base64url, so URL-encoding leaves it
// unchanged. What the body holds, and what binds it to its own timeline or query, is the caller's.
const MAC_BYTES = 16;

export interface TokenFormat {
  version: number;
  bodyBytes: number;
  /** "timeline" or "search", for the messages a client reads. */
  what: string;
}

const mac = (key: Buffer, body: Buffer): Buffer => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

export function sealToken(key: Buffer, body: Buffer): string {
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/** The body of a token, after checking it is one this data dir issued in this format. */
export function openToken(key: Buffer, token: unknown, format: TokenFormat): Buffer {
  if (Array.isArray(token)) throw fail.invalid('cursor', 'give it once, not several times.');
  if (token === '') {
    throw fail.invalid('cursor', `it is empty. Omit cursor for the first page; an empty next_cursor means the ${format.what} has no more tweets.`);
  }
  const length = Math.ceil(((format.bodyBytes + MAC_BYTES) * 8) / 6);
  if (typeof token !== 'string' || token.length !== length || !/^[A-Za-z0-9_-]+$/.test(token)) {
    throw fail.invalid('cursor', 'not a cursor Skein issued. Pass next_cursor from the previous page unchanged (URL-encoded).');
  }
  const raw = Buffer.from(token, 'base64url');
  // A length that is not a multiple of 4 characters carries spare bits; a token that does not
  // re-encode to itself was edited there.
  const canonical = raw.toString('base64url') === token;
  const body = raw.subarray(0, format.bodyBytes);
  const given = raw.subarray(format.bodyBytes);
  if (!canonical || given.length !== MAC_BYTES || !timingSafeEqual(given, mac(key, body)) || body.readUInt8(0) !== format.version) {
    throw fail.invalid('cursor', 'it was altered or not issued by this Skein. Pass next_cursor from the previous page unchanged.');
  }
  return body;
}
