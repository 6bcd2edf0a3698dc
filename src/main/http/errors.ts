import { type ErrorCode, fail, SkeinError, statusOf } from '../engine/errors';

// HTTP view of the engine's error catalogue (src/main/engine/errors.ts): every failure leaves in
// the spec's body (section 2.7), {"status":"error","message":"..."}.
export { SkeinError, fail, statusOf, type ErrorCode };

export function errorBody(message: string): string {
  return JSON.stringify({ status: 'error', message });
}

export const routeNotFound = (method: string, url: string) =>
  new SkeinError('not_found', `No endpoint ${method} ${url.split('?')[0]}.`);
