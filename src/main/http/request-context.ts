import type { MeterState } from './plugins/metering';

// What the request pipeline learns about a request, shared by the plugins that fill it in:
// auth (onRequest) sets apiUser, metering (preHandler) admits it and posts the charge.
export interface ApiUser {
  id: number;
  name: string;
  perMinuteLimit: number;
  /** Available credits as read with the key (Metering.reserve says when it is still current). */
  credits: { available: number; atLedgerWrite: number };
}

declare module 'fastify' {
  interface FastifyRequest {
    apiUser?: ApiUser;
    /** The metering plugin's state of a spec request (plugins/metering.ts); null elsewhere. */
    meter: MeterState | null;
  }
  interface FastifyContextConfig {
    /** A spec endpoint: Bearer key required, metered, RateLimit headers. */
    spec?: boolean;
    /** The largest credit cost a request can incur (a timeline page: 20), checked before any work. */
    maxCost?: number;
  }
}
