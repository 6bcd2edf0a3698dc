import { useMemo } from 'react';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import type { UpstreamSpendRow, UpstreamState } from '../../../../shared/contract';
import { DataTable } from '../../components/DataTable';
import { fmtInt } from '../../format';
import { fmtUsd, itemsAndUsd, spenderWords } from './source-words';

const col = createColumnHelper<UpstreamSpendRow>();

/** What Skein spent at the upstream: today, this month, all time (UTC), and for whom. */
export function SourceSpend({ state }: { state: UpstreamState }) {
  const { spend, budget } = state;
  const columns = useMemo(
    () =>
      [
        col.accessor((r) => spenderWords(r), { id: 'who', header: 'For', size: 220, meta: { grow: true } }),
        col.accessor('items', { header: 'Items', size: 100, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue()) }),
        col.accessor('usd', { header: 'Dollars', size: 110, meta: { numeric: true }, cell: (c) => fmtUsd(c.getValue()) }),
        col.accessor('requests', { header: 'Requests', size: 100, meta: { numeric: true }, cell: (c) => fmtInt(c.getValue()) }),
      ] as ColumnDef<UpstreamSpendRow, unknown>[],
    [],
  );
  return (
    <>
      <dl className="figures inline spend-figures">
        <div><dt>Today (UTC)</dt><dd data-testid="spend-today">{itemsAndUsd(spend.today.items, spend.today.usd)}</dd></div>
        <div><dt>This month</dt><dd data-testid="spend-month">{itemsAndUsd(spend.month.items, spend.month.usd)}</dd></div>
        <div><dt>All time</dt><dd data-testid="spend-all">{itemsAndUsd(spend.all.items, spend.all.usd)} · {fmtInt(spend.all.requests)} requests</dd></div>
        {budget ? (
          <div><dt>Budget left</dt><dd data-testid="budget-left">{itemsAndUsd(budget.left_items, budget.left_usd)} of {fmtInt(budget.items)}</dd></div>
        ) : null}
      </dl>
      <DataTable
        label="Upstream spending by local user"
        data={spend.by_user}
        columns={columns}
        getRowId={(r) => `${r.via}:${r.api_user_id ?? ''}`}
        height={220}
        empty="Nothing fetched from the upstream yet."
      />
    </>
  );
}
