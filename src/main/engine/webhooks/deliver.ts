import { SIGNATURE_HEADER, signatureHeader } from './sign';

/** A delivery that takes longer than this fails with a timeout (and, per spec 6, is not retried). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface DeliveryOutcome {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

/**
 * One POST of a job_finished body. Only HTTP 200 counts as success (spec 6); a redirect is not
 * followed (it is an answer other than 200). The response body is drained and ignored.
 */
export async function deliverWebhook(url: string, body: string, options: { timeoutMs: number; secret: string | null; nowMs: number }): Promise<DeliveryOutcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Skein-Webhook/1' };
  if (options.secret) headers[SIGNATURE_HEADER] = signatureHeader(options.secret, body, options.nowMs);
  try {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    return res.status === 200
      ? { ok: true, httpStatus: 200, error: null }
      : { ok: false, httpStatus: res.status, error: `The receiver answered HTTP ${res.status}; only 200 counts as delivered.` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      return { ok: false, httpStatus: null, error: `No answer within ${options.timeoutMs} ms (timeout).` };
    }
    const cause = e.cause?.code ?? e.cause?.message ?? e.message;
    return { ok: false, httpStatus: null, error: `The call failed: ${cause}.` };
  }
}
