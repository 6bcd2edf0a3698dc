import type { TweetUser } from '../../../shared/contract';

// An author the source named by id only (a withheld or suspended account left out of a twarc2
// page, a v1.1 trim_user status) comes with an empty screen_name and name and a creation time of
// 1970-01-01: the app says so instead of showing a bare "@".

/** True when the corpus knows the author by id only (no screen name). */
export const isUnknownAuthor = (user: Pick<TweetUser, 'screen_name'>): boolean => user.screen_name === '';

/** "@name", or "unknown author (id …)" when only the id is known. */
export const authorLabel = (user: Pick<TweetUser, 'screen_name' | 'id_str'>): string =>
  isUnknownAuthor(user) ? `unknown author (id ${user.id_str})` : `@${user.screen_name}`;

/** The stored creation time when no source gave one (the epoch): shown as unknown. */
export const isUnknownTime = (iso: string): boolean => /^1970-01-01T00:00:00(\.0+)?(Z|\+00:00)$/.test(iso);
