import type { JsonObject } from '../serialize/tweet';

/**
 * What a read returns: the spec's JSON value (BigInt ids; write it with serialize's toJson, or pass
 * it over IPC, which keeps BigInt) and how many items it holds, which is what metering charges.
 */
export interface ReadResult<T = JsonObject> {
  value: T;
  items: number;
}

/** A read already written as the spec's JSON text (the HTTP answer), and its items. */
export interface JsonReadResult {
  json: string;
  items: number;
}
