import type { Requester } from '../upstream/spend';

/**
 * The built-in API user 'app' (migration 010). The app's own reads of the local corpus are free and
 * unlimited; what belongs to this user is what the app starts: its jobs (their holds and charges),
 * its webhook and inbox, and the keys a script may use to act as it.
 */
export const APP_USER_ID = 1;

/** Who the app's reads through the upstream are for: booked as the app's spend, in the 'app' user's ledger. */
export const APP_REQUESTER: Requester = { via: 'app', apiUserId: APP_USER_ID };
