import type { Column } from '@tanstack/react-table';
import { useEffect, useRef, useState } from 'react';
import { columnName } from './column-name';

/**
 * "Columns": show or hide each column of a table, remembered per table (stores/table-layout.ts).
 * A column that may not be hidden (row actions, `enableHiding: false`) is not listed, and the last
 * shown column cannot be hidden, so a table never ends with no column at all.
 */
export function ColumnChooser<T>({ columns, onReset }: { columns: Column<T, unknown>[]; onReset: () => void }) {
  // Where the menu opens: under the button, right-aligned (fixed, as the table clips what overflows it).
  const [open, setOpen] = useState<{ top: number; right: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) setOpen(null);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  const hideable = columns.filter((c) => c.getCanHide() && !(c.columnDef.meta as { sticky?: boolean } | undefined)?.sticky);
  const shown = columns.filter((c) => c.getIsVisible()).length;
  return (
    <div className="column-chooser" ref={box}>
      <button
        type="button"
        className="subtle small"
        aria-expanded={open !== null}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setOpen(open ? null : { top: r.bottom + 4, right: window.innerWidth - r.right });
        }}
      >
        Columns
      </button>
      {open ? (
        <div className="column-menu" role="group" aria-label="Columns shown" style={{ top: open.top, right: open.right }}>
          {hideable.map((c) => (
            <label key={c.id} className="check">
              <input
                type="checkbox"
                checked={c.getIsVisible()}
                disabled={c.getIsVisible() && shown <= 1}
                onChange={(e) => c.toggleVisibility(e.target.checked)}
              />
              {columnName(c)}
            </label>
          ))}
          <button type="button" className="subtle small" onClick={onReset}>
            Reset widths and columns
          </button>
        </div>
      ) : null}
    </div>
  );
}
