// Prices (docs/decisions.md "Credits: prices"): 1 credit per item returned (post, user, space,
// article), at least 1 per successful request. Failed and refused requests cost nothing.

/** What a successful request that returned `items` items costs. */
export function priceOf(items: number): number {
  return Math.max(1, Math.floor(items));
}

/** The largest cost of a request whose route did not declare one: a single-item answer. */
export const DEFAULT_MAX_COST = 1;
