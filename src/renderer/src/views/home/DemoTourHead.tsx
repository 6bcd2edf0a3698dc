import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DemoRemoval } from '../../../../shared/contract';
import { useSkeinMutation } from '../../api/hooks';
import { ConfirmBar } from '../../components/ConfirmBar';
import { fmtInt } from '../../format';
import { useUi } from '../../stores/ui';

/**
 * The demo tour's title. While the corpus holds demo data it says the data is fictional, with the
 * way to take it out before the analyst's own data goes in beside it (corpus/seed/remove.ts).
 * Everything the app shows may have held demo records, so every query is asked again afterwards.
 */
export function DemoTourHead({ holdsDemoData }: { holdsDemoData: boolean }) {
  const [asking, setAsking] = useState(false);
  const remove = useSkeinMutation('corpus.removeDemo');
  const client = useQueryClient();
  const toast = useUi((s) => s.toast);
  return (
    <>
      <header className="card-head">
        <h2 id="tour-title">Demo tour</h2>
        {holdsDemoData && !asking ? (
          <button type="button" className="subtle small" onClick={() => setAsking(true)}>
            Remove the demo data…
          </button>
        ) : null}
      </header>
      {holdsDemoData ? (
        <p className="muted small">
          Fictional users, posts, articles and spaces, loaded so there is something to browse. Remove them before you import or fetch your own
          data, so that searches, overviews and exports hold only yours.
        </p>
      ) : null}
      {asking ? (
        <ConfirmBar
          label="Remove the demo data"
          testId="remove-demo-confirm"
          action="Remove demo data"
          busyAction="Removing…"
          busy={remove.isPending}
          onKeep={() => setAsking(false)}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: (r) => toast(removedText(r), 'ok'),
              onError: (e) => toast(e.message, 'error'),
              onSettled: () => {
                setAsking(false);
                void client.invalidateQueries();
              },
            })
          }
        >
          Remove the demo data from the corpus? Records you imported or fetched stay, and so do jobs, their files and the ledger; a job&apos;s
          overview then counts only the posts the corpus still holds.
        </ConfirmBar>
      ) : null}
    </>
  );
}

function removedText(r: DemoRemoval): string {
  const { users, posts, articles, spaces } = r.removed;
  const kept = r.kept.users + r.kept.posts + r.kept.spaces;
  return (
    `Removed the demo data: ${fmtInt(users)} users, ${fmtInt(posts)} posts, ${fmtInt(articles)} articles, ${fmtInt(spaces)} spaces.` +
    (kept > 0 ? ` Kept ${fmtInt(kept)} of its records that a newer copy replaced.` : '')
  );
}
