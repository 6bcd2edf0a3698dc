import { formatMicroZ } from '../write/time';
import type { Rng } from './rng';
import { SNOWFLAKE_EPOCH_MS, Snowflakes } from './snowflake';
import { BIO_PARTS, FIRST_NAMES, LAST_NAMES, LOCATIONS, ORGS } from './words';

export type UserKind = 'normal' | 'popular' | 'protected' | 'spam';

export interface SeedUser {
  idx: number;
  id_str: string;
  screen_name: string;
  name: string;
  kind: UserKind;
  lang: string;
  followers: number;
  /** Relative posting activity: heavy-tailed, so a few accounts write most posts. */
  activity: number;
  createdUs: number;
  /** The spec 2.2 User object as the service returns it (id only as id_str). */
  obj: Record<string, unknown>;
}

const FIRST_ACCOUNT_MS = Date.UTC(2007, 2, 1);
const LAST_ACCOUNT_MS = Date.UTC(2025, 5, 1);

/**
 * Accounts sorted by creation time. Accounts older than the snowflake epoch (2010-11-04) get small
 * sequential ids like the platform's early users; later ones get snowflakes (above 2^53).
 */
export function makeUsers(rng: Rng, count: number): SeedUser[] {
  const times = Array.from({ length: count }, () => FIRST_ACCOUNT_MS + rng.int(LAST_ACCOUNT_MS - FIRST_ACCOUNT_MS)).sort((a, b) => a - b);
  const flakes = new Snowflakes(1);
  const spamFrom = count - Math.max(2, Math.round(count * 0.03));
  const protectedIdx = Math.floor(count * 0.37);
  let smallId = 5_000_000 + rng.int(1_000_000);
  const users: SeedUser[] = [];
  for (let idx = 0; idx < count; idx++) {
    const ms = times[idx]!;
    // Spam accounts are the newest ones, like real throwaway accounts.
    const kind: UserKind = idx >= spamFrom ? 'spam' : idx === protectedIdx ? 'protected' : rng.chance(0.06) ? 'popular' : 'normal';
    let id: bigint;
    if (ms < SNOWFLAKE_EPOCH_MS) {
      smallId += 1 + rng.int(40_000);
      id = BigInt(smallId);
    } else id = flakes.at(ms);
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const org = kind === 'popular' && rng.chance(0.4) ? rng.pick(ORGS) : null;
    const name = org ?? `${first} ${last}`;
    const screen = kind === 'spam'
      ? `gains_${10 + rng.int(90)}${idx}`
      : org ? `${org.replace(/[^A-Za-z]/g, '').slice(0, 10)}${idx}` : `${first.slice(0, 6)}_${last.slice(0, 4)}${idx}`.toLowerCase().slice(0, 15);
    const followers = kind === 'popular' ? 20_000 + rng.heavy(30_000) : kind === 'spam' ? rng.int(12) : rng.heavy(300);
    const createdUs = ms * 1000 + rng.int(1000);
    const lang = kind === 'spam' ? 'en' : rng.chance(0.85) ? 'en' : rng.chance(0.5) ? 'de' : 'es';
    const idStr = id.toString();
    users.push({
      idx, id_str: idStr, screen_name: screen, name, kind, lang, followers, createdUs,
      activity: kind === 'spam' ? 0 : kind === 'popular' ? 8 + rng.int(20) : 0.3 + rng.heavy(1.5),
      obj: {
        id_str: idStr,
        name,
        screen_name: screen,
        location: kind === 'spam' ? '' : rng.pick(LOCATIONS),
        url: kind !== 'spam' && rng.chance(0.4) ? `https://example.org/~${screen}` : null,
        description: kind === 'spam' ? 'DM for collabs 💸' : `${rng.pick(BIO_PARTS)} ${rng.pick(BIO_PARTS)}`,
        protected: kind === 'protected',
        verified: kind === 'popular' && rng.chance(0.5),
        followers_count: followers,
        friends_count: kind === 'spam' ? 2000 + rng.int(3000) : rng.heavy(200),
        listed_count: Math.floor(followers / (40 + rng.int(60))),
        favourites_count: rng.heavy(2000),
        statuses_count: 100 + rng.heavy(3000),
        created_at: formatMicroZ(createdUs),
        profile_banner_url: `https://images.example.com/banners/${idStr}/1500x500`,
        profile_image_url_https: `https://images.example.com/profile/${idStr}/avatar_normal.jpg`,
        can_dm: kind !== 'protected' && rng.chance(0.5),
      },
    });
  }
  return users;
}

/** Picks a posting author by activity weight (binary search over the cumulative weights). */
export class AuthorPicker {
  private readonly cumulative: number[] = [];
  private total = 0;
  constructor(private readonly users: readonly SeedUser[]) {
    for (const u of users) {
      this.total += u.activity;
      this.cumulative.push(this.total);
    }
  }
  pick(rng: Rng): SeedUser {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.users[lo]!;
  }
}
