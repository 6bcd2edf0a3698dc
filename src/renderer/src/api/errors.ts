import type { AppError, AppErrorCode } from '../../../shared/contract';

/** A failed engine call, as the views see it: the catalogue's code, words, and maybe a position. */
export class EngineError extends Error {
  override name = 'EngineError';
  readonly code: AppErrorCode;
  readonly position: AppError['position'];
  constructor(error: AppError) {
    super(error.message);
    this.code = error.code;
    this.position = error.position;
  }
}

/**
 * Skein did not answer at all: `skein serve` stopped or is restarting. The page's banner says so,
 * once, and reconnects by itself (http-bridge.ts), so views and notices do not say it again on
 * every view opened and every click (issue 15 "Restarts and failures").
 */
export class UnreachableError extends EngineError {
  constructor() {
    super({ code: 'internal', message: 'Skein is not reachable: is `skein serve` still running? This page reconnects by itself.' });
  }
}

/** Whatever a transport rejected with (an AppError object, an Error, a string) -> EngineError. */
export function toEngineError(err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  if (err && typeof err === 'object' && typeof (err as AppError).code === 'string' && typeof (err as AppError).message === 'string') {
    return new EngineError(err as AppError);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new EngineError({ code: 'internal', message: message || 'Something went wrong.' });
}

/** Words for a person, by code: what happened and what to do about it. */
export function explain(error: EngineError): { title: string; hint: string | null } {
  switch (error.code) {
    case 'payment_required':
      // Only a job can ask for credits in the app: browsing is free.
      return { title: 'Not enough credits', hint: "A job holds its largest cost from the user 'app' when it starts. Grant credits to 'app' in Settings, or lower max_count." };
    case 'not_found':
      return { title: 'Not found', hint: null };
    case 'gone':
      return { title: 'Deleted', hint: null };
    case 'forbidden':
      return { title: 'Not allowed', hint: null };
    case 'invalid':
      return { title: 'Please check the input', hint: null };
    case 'unavailable':
      return { title: 'Not available yet', hint: 'This part of Skein is not in this build yet.' };
    case 'upstream':
      return { title: 'The upstream could not give the data', hint: 'Check Settings > Sources (the key, the URL, the budget), or set the mode to offline to read only your corpus.' };
    case 'unauthorized':
      return { title: 'Not signed in', hint: 'Reload the page to get a new session.' };
    default:
      return { title: 'Something went wrong', hint: 'Please try again; if it keeps failing, restart Skein.' };
  }
}
