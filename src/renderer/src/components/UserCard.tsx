import type { TweetUser } from '../../../shared/contract';
import { fmtCompact, fmtDate } from '../format';
import { href } from '../router';
import { Avatar } from './Avatar';

export function UserName({ user }: { user: Pick<TweetUser, 'name' | 'screen_name' | 'verified' | 'protected'> }) {
  return (
    <span className="user-name">
      <strong>{user.name}</strong>
      {user.verified ? <span className="badge verified" title="Verified">✓</span> : null}
      {user.protected ? <span className="kind-tag protected-tag" title="Protected account: its timelines are not available">protected</span> : null}
      <span className="muted"> @{user.screen_name}</span>
    </span>
  );
}

export function UserCard({ user, compact = false }: { user: TweetUser; compact?: boolean }) {
  return (
    <article className={`card user-card ${compact ? 'compact' : ''}`} aria-label={`Profile of @${user.screen_name}`}>
      <div className="user-card-head">
        <Avatar name={user.name || user.screen_name} url={user.profile_image_url_https} size={compact ? 40 : 56} />
        <div>
          <UserName user={user} />
          <div className="muted small">
            id {user.id_str} · joined {fmtDate(user.created_at)}
            {user.location ? ` · ${user.location}` : ''}
          </div>
        </div>
      </div>
      {!compact && user.description ? <p className="user-description">{user.description}</p> : null}
      <dl className="figures inline">
        <div><dt>Posts</dt><dd>{fmtCompact(user.statuses_count)}</dd></div>
        <div><dt>Followers</dt><dd>{fmtCompact(user.followers_count)}</dd></div>
        <div><dt>Following</dt><dd>{fmtCompact(user.friends_count)}</dd></div>
        <div><dt>Listed</dt><dd>{fmtCompact(user.listed_count)}</dd></div>
      </dl>
      <div className="card-actions">
        <a className="button subtle small" href={href('/timeline', { user: user.id_str })}>Timeline</a>
        <a className="button subtle small" href={href('/search', { q: `from:${user.screen_name}` })}>Search posts</a>
      </div>
    </article>
  );
}
