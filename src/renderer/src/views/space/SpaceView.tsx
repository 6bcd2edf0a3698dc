import { useState } from 'react';
import type { Space } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { Avatar } from '../../components/Avatar';
import { PageHeader } from '../../components/Layout';
import { RawJson } from '../../components/RawJson';
import { ErrorState, Loading } from '../../components/States';
import { fmtCompact, fmtDate, fmtDateTime, fmtDuration, fmtInt, toMs } from '../../format';
import { href } from '../../router';
import { clip, useDocumentTitle } from '../../document-title';

/** Space: state, the times of its life, listeners, and its creator. */
export function SpaceView({ id }: { id: string }) {
  const detail = useSkein('space.get', { id }, { enabled: id !== '', staleTime: Infinity });
  const [raw, setRaw] = useState(false);
  useDocumentTitle(detail.data ? `${clip(detail.data.space.title || 'Untitled space')} · Space` : 'Space');
  if (detail.error) return <div className="view"><PageHeader title="Space" /><ErrorState error={detail.error} /></div>;
  if (detail.isPending) return <div className="view"><PageHeader title="Space" /><Loading /></div>;
  const space = detail.data.space;
  const started = toMs(space.started_at);
  const ended = toMs(space.ended_at);
  return (
    <div className="view space">
      <PageHeader
        title={space.title || 'Untitled space'}
        subtitle={<>Space <code>{space.id}</code> · <span className={`state-badge ${space.state.toLowerCase()}`}>{space.state}</span></>}
        actions={<button type="button" className="subtle" aria-pressed={raw} onClick={() => setRaw(!raw)}>{raw ? 'Hide JSON' : 'Raw JSON'}</button>}
      />
      <div className="two-columns">
        <div className="main-column">
          <section className="card" aria-labelledby="times-title">
            <h2 id="times-title">Times</h2>
            <dl className="facts">
              <Fact label="Created" value={fmtDateTime(space.created_at)} />
              <Fact label="Scheduled start" value={fmtDateTime(space.scheduled_start)} />
              <Fact label="Started" value={fmtDateTime(space.started_at)} />
              <Fact label="Ended" value={fmtDateTime(space.ended_at)} />
              <Fact label="Updated" value={fmtDateTime(space.updated_at)} />
              <Fact label="Duration" value={started !== null && ended !== null ? fmtDuration(ended - started) : '—'} />
            </dl>
          </section>
          <section className="card" aria-labelledby="audience-title">
            <h2 id="audience-title">Audience</h2>
            <dl className="figures inline">
              <div><dt>Live listeners</dt><dd>{fmtInt(space.total_live_listeners)}</dd></div>
              <div><dt>Replay views</dt><dd>{fmtInt(space.total_replay_watched)}</dd></div>
            </dl>
            <ul className="flags">
              <Flag on={space.is_space_available_for_replay} label="Replay available" />
              <Flag on={Boolean(space.is_space_available_for_clipping)} label="Clipping allowed" />
              <Flag on={space.is_locked} label="Locked" />
              <Flag on={space.disallow_join} label="Joining disallowed" />
              <Flag on={Boolean(space.is_employee_only)} label="Employees only" />
            </ul>
          </section>
          {raw ? <RawJson json={detail.data.raw_json} /> : null}
        </div>
        <aside className="side-column" aria-label="Creator">
          <Creator space={space} />
        </aside>
      </div>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Flag({ on, label }: { on: boolean; label: string }) {
  return <li className={on ? 'on' : 'off'}>{on ? '✓' : '–'} {label}</li>;
}

function Creator({ space }: { space: Space }) {
  const c = space.creator;
  const l = c.legacy;
  const label = c.affiliates_highlighted_label?.label?.description;
  return (
    <article className="card user-card" aria-label="Creator">
      <h2>Creator</h2>
      <div className="user-card-head">
        <Avatar name={l.name || l.screen_name} url={l.profile_image_url_https} size={56} />
        <div>
          <strong>{l.name}</strong> {c.is_blue_verified || l.verified ? <span className="badge verified" title="Verified">✓</span> : null}
          <div className="muted">@{l.screen_name}</div>
          <div className="muted small">id {numericUserId(c.id)} · joined {fmtDate(l.created_at)}</div>
        </div>
      </div>
      {label ? <p className="affiliate">{label}</p> : null}
      {l.description ? <p className="user-description">{l.description}</p> : null}
      <dl className="figures inline">
        <div><dt>Followers</dt><dd>{fmtCompact(l.followers_count)}</dd></div>
        <div><dt>Following</dt><dd>{fmtCompact(l.friends_count)}</dd></div>
        <div><dt>Posts</dt><dd>{fmtCompact(l.statuses_count)}</dd></div>
      </dl>
      <a className="button subtle" href={href('/timeline', { user: `@${l.screen_name}` })}>Timeline of @{l.screen_name}</a>
    </article>
  );
}

/**
 * The creator's numeric user id. The spec's creator.id is the platform's GraphQL node id, base64 of
 * "User:<id>" ("VXNlcjo0NDE5NjM5Nw==" is user 44196397); analysts know users by the number.
 */
export function numericUserId(nodeId: string): string {
  try {
    const m = /^User:(\d{1,20})$/.exec(atob(nodeId));
    return m ? m[1]! : nodeId;
  } catch {
    return nodeId; // not base64: shown as it is
  }
}
