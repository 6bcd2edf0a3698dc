import type { AppError } from '../../../shared/contract';
import { SkeinError } from '../errors';

/**
 * Any failure -> the contract's {code, message}. A SkeinError keeps its code and words (and a search
 * error its position); anything else is a real fault: 'internal' with no stack trace or internals.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof SkeinError) {
    const out: AppError = { code: err.code, message: err.message };
    // A search syntax error (search/syntax-error.ts) carries a 1-based column and a length.
    const { position, length } = err as SkeinError & { position?: unknown; length?: unknown };
    if (typeof position === 'number') out.position = { column: position, length: typeof length === 'number' ? length : 1 };
    return out;
  }
  if (err && typeof err === 'object' && (err as { code?: unknown }).code === 'unavailable') {
    return { code: 'unavailable', message: String((err as Error).message) };
  }
  return { code: 'internal', message: 'Internal error: the request could not be completed. Please retry later.' };
}

/** A capability this build does not have yet: the view shows "not available yet". */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
  readonly code = 'unavailable';
  constructor(what: string) {
    super(`${what} is not available in this build yet.`);
  }
}
