import { type FormEvent, useState } from 'react';
import type { TourStop } from '../../../../shared/contract';
import { useSkein } from '../../api/hooks';
import { DemoTourHead } from './DemoTourHead';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/States';
import { fmtDate, fmtInt } from '../../format';
import { href, navigate } from '../../router';
import { useDocumentTitle } from '../../document-title';

function stopHref(stop: TourStop): string {
  switch (stop.kind) {
    case 'user':
      return href('/timeline', { user: stop.id });
    case 'article':
      return href(`/article/${stop.id}`);
    case 'space':
      return href(`/space/${stop.id}`);
    default:
      return href(`/post/${stop.id}`);
  }
}

/** Home: what is in the corpus, the demo tour, and a box to open anything by id. */
export function HomeView() {
  const summary = useSkein('corpus.summary', undefined);
  useDocumentTitle('Home');
  return (
    <div className="view home">
      <PageHeader title="Skein" subtitle="Your social-data research desk: browse, search and collect from the corpus on this machine." />
      {summary.error ? (
        <ErrorState error={summary.error} />
      ) : summary.isPending ? (
        <Loading lines={2} />
      ) : (
        <>
          <section aria-label="Corpus figures" className="figure-cards">
            <Figure label="Users" value={summary.data.users} />
            <Figure label="Posts" value={summary.data.posts} />
            <Figure label="Replies" value={summary.data.replies} />
            <Figure label="Articles" value={summary.data.articles} />
            <Figure label="Spaces" value={summary.data.spaces} />
            <div className="figure-card">
              <span className="figure-label">Time span</span>
              <span className="figure-value small-value">
                {summary.data.first_post_ms === null ? '—' : `${fmtDate(summary.data.first_post_ms)} – ${fmtDate(summary.data.last_post_ms)}`}
              </span>
            </div>
          </section>
          <section className="card" aria-labelledby="tour-title">
            <DemoTourHead holdsDemoData={summary.data.holds_demo_data} />
            {summary.data.tour.length === 0 ? (
              <Empty title="No tour for this corpus">Import files in Settings → Data, or run <code>skein seed</code>.</Empty>
            ) : (
              <ol className="tour">
                {summary.data.tour.map((stop) => (
                  <li key={`${stop.kind}-${stop.id}`}>
                    <a href={stopHref(stop)}>
                      <span className={`kind-tag ${stop.kind}`}>{stop.kind}</span>
                      <span>{stop.label}</span>
                      <code className="muted">{stop.id}</code>
                    </a>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      )}
      <OpenById />
    </div>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="figure-card">
      <span className="figure-label">{label}</span>
      <span className="figure-value">{fmtInt(value)}</span>
    </div>
  );
}

function OpenById() {
  const [kind, setKind] = useState<'user' | 'post' | 'article' | 'space'>('user');
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = value.trim();
    if (!v) return;
    if (kind === 'user') navigate('/timeline', { user: v });
    else navigate(`/${kind}/${encodeURIComponent(v)}`);
  };
  return (
    <section className="card" aria-labelledby="open-title">
      <h2 id="open-title">Open</h2>
      <form className="row-form" onSubmit={submit}>
        <label>
          <span className="sr-only">Kind</span>
          <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
            <option value="user">User (@name or id)</option>
            <option value="post">Post id</option>
            <option value="article">Article (post id)</option>
            <option value="space">Space id</option>
          </select>
        </label>
        <label className="grow">
          <span className="sr-only">Id or name</span>
          <input value={value} onChange={(e) => setValue(e.target.value)} placeholder="@name, 1849301923456789012…" />
        </label>
        <button type="submit">Open</button>
      </form>
    </section>
  );
}
