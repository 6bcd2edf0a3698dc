import { formatV1 } from '../write/time';
import { ALNUM, type Rng } from './rng';
import type { SeedUser } from './users';
import { ORGS } from './words';

/** The full creator object of spec 2.5 for a seeded user (GraphQL-style id "User:<rest id>"). */
export function spaceCreator(rng: Rng, user: SeedUser): Record<string, unknown> {
  const o = user.obj;
  const org = rng.pick(ORGS);
  const slug = org.toLowerCase().replace(/[^a-z]+/g, '-');
  return {
    id: Buffer.from(`User:${user.id_str}`).toString('base64'),
    affiliates_highlighted_label: {
      label: {
        url: { url: `https://example.org/${slug}`, urlType: 'DeepLink' },
        badge: { url: `https://images.example.com/badges/${slug}.png` },
        description: org,
        userLabelType: 'BusinessLabel',
        userLabelDisplayType: 'Badge',
      },
    },
    has_graduated_access: true,
    is_blue_verified: rng.chance(0.6),
    profile_image_shape: 'Circle',
    legacy: {
      can_dm: o.can_dm,
      can_media_tag: rng.chance(0.7),
      created_at: formatV1(user.createdUs),
      default_profile: false,
      default_profile_image: false,
      description: o.description,
      entities: { description: { urls: [] } },
      fast_followers_count: 0,
      favourites_count: o.favourites_count,
      followers_count: o.followers_count,
      friends_count: o.friends_count,
      has_custom_timelines: rng.chance(0.3),
      is_translator: false,
      listed_count: o.listed_count,
      location: o.location,
      media_count: rng.int(400),
      name: o.name,
      normal_followers_count: o.followers_count,
      pinned_tweet_ids_str: [],
      possibly_sensitive: false,
      profile_banner_url: o.profile_banner_url,
      profile_image_url_https: o.profile_image_url_https,
      profile_interstitial_type: '',
      screen_name: o.screen_name,
      statuses_count: o.statuses_count,
      translator_type: 'none',
      verified: o.verified,
      verified_type: 'Business',
      want_retweets: false,
      withheld_in_countries: [],
    },
  };
}

/** An ended space hosted by `host` around `startMs` (spec 2.5: ended_at is a string of ms). */
export function endedSpace(rng: Rng, host: SeedUser, title: string, createdMs: number): Record<string, unknown> {
  const scheduled = createdMs + (1 + rng.int(48)) * 3_600_000;
  const started = scheduled + rng.int(600_000);
  const ended = started + (20 + rng.int(100)) * 60_000;
  return {
    state: 'Ended',
    title,
    media_key: `28_${String(1_700_000_000_000_000_000n + BigInt(createdMs) * 1000n + BigInt(rng.int(1000)))}`,
    created_at: createdMs,
    scheduled_start: scheduled,
    started_at: started,
    ended_at: String(ended),
    updated_at: ended + rng.int(5000),
    disallow_join: false,
    is_employee_only: false,
    is_locked: false,
    is_space_available_for_replay: rng.chance(0.7),
    is_space_available_for_clipping: rng.chance(0.5),
    narrow_cast_space_type: 0,
    conversation_controls: 0,
    total_replay_watched: rng.heavy(300),
    total_live_listeners: 5 + rng.heavy(200),
    id: `1${rng.chars(ALNUM, 12)}`,
    creator: spaceCreator(rng, host),
  };
}
