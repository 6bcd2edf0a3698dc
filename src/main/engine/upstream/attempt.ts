import { deadline } from '../deadline';

// One GET to the upstream: a whole-request deadline (headers AND body, so a response that starts
// and then hangs is cut too) and a cap on the body, so a hostile or broken upstream can neither
// hold a caller forever nor exhaust memory. Redirects are not followed: the Bearer key goes to the
// configured URL and nowhere else.

export type AttemptResult =
  | { kind: 'response'; status: number; headers: Headers; text: string }
  | { kind: 'failed'; reason: string; retryable: boolean };

export interface AttemptOptions {
  timeoutMs: number;
  maxBodyBytes: number;
}

export async function attemptGet(url: string, key: string, options: AttemptOptions, extraHeaders: Record<string, string> = {}): Promise<AttemptResult> {
  const limit = deadline(options.timeoutMs);
  try {
    const res = await fetch(url, {
      headers: { ...extraHeaders, authorization: `Bearer ${key}`, accept: 'application/json' },
      redirect: 'manual',
      signal: limit.signal,
    });
    const body = await readBounded(res, options.maxBodyBytes);
    if (body === null) {
      limit.abort();
      return { kind: 'failed', reason: `the answer is larger than ${options.maxBodyBytes} bytes`, retryable: false };
    }
    return { kind: 'response', status: res.status, headers: res.headers, text: body };
  } catch (err) {
    if (limit.timedOut()) return { kind: 'failed', reason: `no complete answer within ${options.timeoutMs} ms`, retryable: true };
    return { kind: 'failed', reason: `cannot connect (${causeOf(err)})`, retryable: true };
  } finally {
    limit.clear();
  }
}

/** The body as text, or null once it passes maxBytes (the rest is never read). */
async function readBounded(res: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The network error's own words (undici hides them in `cause`): ECONNREFUSED, ENOTFOUND... */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return String(cause?.code ?? cause?.message ?? (err as Error)?.message ?? err).slice(0, 200);
}
