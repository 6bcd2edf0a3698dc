// API users and their keys: create (printed once, stored as SHA-256), revoke, list, authenticate.
export { createKey, DEFAULT_OPENING_CREDITS, MAX_OPENING_CREDITS, type CreateKeyOptions, type CreatedKey } from './create';
export { revokeKey, type RevokedKey } from './revoke';
export { listKeys, type UserListing, type KeyListing } from './list';
export { authenticate, bearerKey, type AuthenticatedUser } from './authenticate';
export { KEY_PATTERN, hashKey } from './format';
export { checkUserName, findUserByName, findUserById, type ApiUserRow } from './users';
