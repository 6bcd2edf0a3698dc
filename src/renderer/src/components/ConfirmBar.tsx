import type { ReactNode } from 'react';

/**
 * Asks before something that cannot be undone (deleting a file, revoking a key): what happens, a
 * red button that does it, and Keep, which changes nothing.
 */
export function ConfirmBar({ label, children, action, busyAction, busy, onConfirm, onKeep, testId }: {
  label: string;
  children: ReactNode;
  action: string;
  busyAction: string;
  busy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
  testId?: string;
}) {
  return (
    <div className="retry-confirm delete-confirm" role="alertdialog" aria-label={label} data-testid={testId}>
      <span className="estimate">{children}</span>
      <button type="button" className="danger-fill" disabled={busy} onClick={onConfirm}>
        {busy ? busyAction : action}
      </button>
      <button type="button" className="subtle" onClick={onKeep}>Keep</button>
    </div>
  );
}
