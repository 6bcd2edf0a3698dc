import { useState } from 'react';
import { useSkein } from '../../api/hooks';
import { Avatar } from '../../components/Avatar';
import { PageHeader } from '../../components/Layout';
import { RawJson } from '../../components/RawJson';
import { ErrorState, Loading } from '../../components/States';
import { UserName } from '../../components/UserCard';
import { authorLabel } from '../../components/author-label';
import { fmtDateTime } from '../../format';
import { clip, useDocumentTitle } from '../../document-title';
import { useRemoteImages } from '../../stores/remote-images';
import { href } from '../../router';
import { ContentState } from './ContentState';

/** Article reader: cover, title, metadata and the content rendered from content_state. */
export function ArticleView({ id }: { id: string }) {
  const detail = useSkein('article.get', { id }, { enabled: id !== '', staleTime: Infinity });
  const [raw, setRaw] = useState(false);
  useDocumentTitle(detail.data ? `${clip(detail.data.article.title)} · Article by ${authorLabel(detail.data.tweet.user)}` : 'Article');
  if (detail.error) return <div className="view"><PageHeader title="Article" /><ErrorState error={detail.error} /></div>;
  if (detail.isPending) return <div className="view"><PageHeader title="Article" /><Loading lines={6} /></div>;
  const { tweet, article } = detail.data;
  return (
    <div className="view article">
      <PageHeader
        title="Article"
        actions={
          <>
            <a className="button subtle" href={href(`/post/${tweet.id_str}`)}>Open the post</a>
            <button type="button" className="subtle" aria-pressed={raw} onClick={() => setRaw(!raw)}>{raw ? 'Hide JSON' : 'Raw JSON'}</button>
          </>
        }
      />
      <article className="card reader" aria-labelledby="article-title">
        <Cover url={article.cover_url} title={article.title} />
        <h1 id="article-title" className="article-title">{article.title}</h1>
        <div className="article-meta">
          <Avatar name={tweet.user.name || tweet.user.screen_name} url={tweet.user.profile_image_url_https} size={36} />
          <div>
            <a href={href('/timeline', { user: tweet.user.id_str })}><UserName user={tweet.user} /></a>
            <div className="muted small">
              Published {fmtDateTime(article.published_at)} · article id <code>{article.id_str}</code>
            </div>
          </div>
        </div>
        {article.preview_text ? <p className="lede">{article.preview_text}</p> : null}
        <ContentState blocks={article.content_state.blocks} />
      </article>
      {raw ? <RawJson json={detail.data.raw_json} /> : null}
    </div>
  );
}

/**
 * The cover keeps its 5:2 box whether or not the image loads (no network, or remote images off in
 * Settings: a quiet placeholder).
 */
function Cover({ url, title }: { url: string; title: string }) {
  const [failed, setFailed] = useState(false);
  const shown = useRemoteImages((s) => s.enabled) && url !== '' && !failed;
  return (
    <div className="cover" aria-hidden="true">
      {shown ? <img src={url} alt="" onError={() => setFailed(true)} referrerPolicy="no-referrer" /> : null}
      {!shown ? <span className="cover-fallback">{title.slice(0, 1).toUpperCase()}</span> : null}
    </div>
  );
}
