import { SkeinError } from '../../src/main/engine/errors';

/** The SkeinError code a call throws ('ok' when it returns); any other error is rethrown. */
export function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof SkeinError) return e.code;
    throw e;
  }
  return 'ok';
}
