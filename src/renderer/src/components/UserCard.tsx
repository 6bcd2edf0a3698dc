import type { TweetUser } from '../../../shared/contract';
import { fmtCompact, fmtDate } from '../format';
import { href } from '../router';
import { authorLabel, isUnknownAuthor, isUnknownTime } from './author-label';
import { Avatar } from './Avatar';

export function UserName({ user }: { user: Pick<TweetUser, 'id_str' | 'name' | 'screen_name' | 'verified' | 'protected'> }) {
  if (isUnknownAuthor(user)) {
    return (
      <span className="user-name" title="The source named this author by id only (a withheld or suspended account, or a trimmed user)">
        <strong>{user.name || 'unknown author'}</strong>
        <span className="muted"> (id {user.id_str})</span>
      </span>
    );
  }
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
    <article className={`card user-card ${compact ? 'compact' : ''}`} aria-label={`Profile of ${authorLabel(user)}`}>
      <div className="user-card-head">
        <Avatar name={user.name || user.screen_name} url={user.profile_image_url_https} size={compact ? 40 : 56} />
        <div>
          <UserName user={user} />
          <div className="muted small">
            id {user.id_str}
            {isUnknownTime(user.created_at) ? '' : ` · joined ${fmtDate(user.created_at)}`}
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
        {isUnknownAuthor(user) ? null : <a className="button subtle small" href={href('/search', { q: `from:${user.screen_name}` })}>Search posts</a>}
      </div>
    </article>
  );
}
