import { deadline, type Deadline } from '../deadline';
import { SIGNATURE_HEADER, signatureHeader } from './sign';

/**
 * The whole exchange (connect, headers and body) must end within this, or it is cut. No answer
 * (status line) within it fails with a timeout (and, per spec 6, is not retried).
 */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * At most this much of an answer's body is read, then the connection is dropped. Only the status
 * code matters (spec 6: "answers HTTP 200"); the body is read at all only so a short answer ("ok")
 * ends cleanly and its connection can be reused. Reading the whole body let a receiver answering
 * 512 MB take the process from 91 MB to 1.7 GB, times 8 deliveries in flight; 4 KiB x 8 is 32 KiB.
 */
export const WEBHOOK_MAX_BODY_BYTES = 4 * 1024;

export interface DeliveryOutcome {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

/**
 * One POST of a job_finished body. Only HTTP 200 counts as success (spec 6); a redirect is not
 * followed (it is an answer other than 200). The outcome is decided by the status line; the body
 * is read up to WEBHOOK_MAX_BODY_BYTES or the deadline, whichever comes first, and ignored.
 */
export async function deliverWebhook(url: string, body: string, options: { timeoutMs: number; secret: string | null; nowMs: number }): Promise<DeliveryOutcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Skein-Webhook/1' };
  if (options.secret) headers[SIGNATURE_HEADER] = signatureHeader(options.secret, body, options.nowMs);
  // One deadline for the whole exchange: a receiver that sends headers and then trickles bytes is cut too.
  const limit = deadline(options.timeoutMs);
  try {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: limit.signal });
    await readAtMost(res, WEBHOOK_MAX_BODY_BYTES, limit);
    return res.status === 200
      ? { ok: true, httpStatus: 200, error: null }
      : { ok: false, httpStatus: res.status, error: `The receiver answered HTTP ${res.status}; only 200 counts as delivered.` };
  } catch (err) {
    if (limit.timedOut()) return { ok: false, httpStatus: null, error: `No answer within ${options.timeoutMs} ms (timeout).` };
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const cause = e.cause?.code ?? e.cause?.message ?? e.message;
    return { ok: false, httpStatus: null, error: `The call failed: ${cause}.` };
  } finally {
    limit.clear();
  }
}

/**
 * Reads the body until it ends or `limitBytes` have come, then drops the connection. Errors while
 * reading (the deadline, a reset) are ignored: the status line has already answered.
 */
async function readAtMost(res: Response, limitBytes: number, exchange: Deadline): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let readBytes = 0;
  try {
    while (readBytes < limitBytes) {
      const { done, value } = await reader.read();
      if (done) return;
      readBytes += value.byteLength;
    }
    // More is coming than we will read: stop the stream and close the socket rather than drain it.
    exchange.abort();
    await reader.cancel().catch(() => undefined);
  } catch {
    // The deadline or the receiver ended the body early; nothing of it is kept.
  }
}
