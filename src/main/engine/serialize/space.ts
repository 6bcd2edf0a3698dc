import { bool, count, type SpaceRow } from './rows';
import { type JsonObject, storedJson } from './tweet';
import { asTwitterDate } from './timestamps';

const ms = (v: bigint | null): number | null => (v === null ? null : Number(v));

/**
 * Space details (2.5) in the spec's field order. Time fields are epoch-ms integers except
 * `ended_at`, a string of digits as the service sends it (null when the space has not ended). The
 * creator is stored whole; only its `legacy.created_at` is brought to the spec's form.
 */
export function spaceObject(s: SpaceRow): JsonObject {
  const stored = storedJson(s.creator_json, {});
  const creator = (stored && typeof stored === 'object' && !Array.isArray(stored) ? { ...stored } : {}) as JsonObject;
  const legacy = creator.legacy;
  if (legacy && typeof legacy === 'object' && !Array.isArray(legacy)) {
    const l = { ...(legacy as JsonObject) };
    if ('created_at' in l) l.created_at = asTwitterDate(l.created_at);
    creator.legacy = l;
  }
  return {
    state: s.state,
    title: s.title,
    media_key: s.media_key,
    created_at: Number(s.created_at_ms),
    scheduled_start: ms(s.scheduled_start_ms),
    started_at: ms(s.started_at_ms),
    ended_at: s.ended_at_ms === null ? null : s.ended_at_ms.toString(),
    updated_at: ms(s.updated_at_ms),
    disallow_join: bool(s.disallow_join),
    is_employee_only: bool(s.is_employee_only),
    is_locked: bool(s.is_locked),
    is_space_available_for_replay: bool(s.is_space_available_for_replay),
    is_space_available_for_clipping: bool(s.is_space_available_for_clipping),
    narrow_cast_space_type: count(s.narrow_cast_space_type),
    conversation_controls: count(s.conversation_controls),
    total_replay_watched: count(s.total_replay_watched),
    total_live_listeners: count(s.total_live_listeners),
    id: s.id,
    creator,
  };
}
