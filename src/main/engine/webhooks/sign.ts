import { createHmac } from 'node:crypto';

// Optional webhook authentication (the spec shows none; docs/decisions.md "Webhook
// authentication"): with a secret set for the user, each delivery carries
//   X-Skein-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret>
// Stripe's scheme: the timestamp inside the signed text lets a receiver refuse replays.
export const SIGNATURE_HEADER = 'x-skein-signature';

export function signatureHeader(secret: string, body: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${mac}`;
}
