import { useMemo } from 'react';
import { type ColumnDef, createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { fmtInt } from '../../format';
import { useRoute } from '../../router';
import { useDocumentTitle } from '../../document-title';

// A diagnostics page (#/dev/table?rows=N): the app's table with N synthetic rows, no engine
// involved, for bench/table.bench.ts and the e2e check that rows in the DOM stay few.
interface Row {
  id: string;
  when: string;
  text: string;
  replies: number;
  likes: number;
}

const col = createColumnHelper<Row>();
const MAX_ROWS = 1_000_000;

export function TableBenchView() {
  useDocumentTitle('Table check');
  const { query } = useRoute();
  const count = Math.min(MAX_ROWS, Math.max(0, Number(query.get('rows') ?? 100_000) || 0));
  const data = useMemo(() => {
    const started = performance.now();
    const rows = Array.from({ length: count }, (_, i): Row => ({
      id: (1_900_000_000_000_000_000n + BigInt(i)).toString(),
      when: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      text: `Row ${i}: a synthetic post to measure scrolling`,
      replies: (i * 7) % 101,
      likes: (i * 13) % 1_009,
    }));
    // Making the rows is this page's cost, not the table's (in the app rows come from the API, a
    // page at a time): the bench reports it apart from the time until the table is ready.
    performance.measure('table-bench-data', { start: started });
    return rows;
  }, [count]);
  const columns = useMemo(
    () =>
      [
        col.accessor('id', { header: 'Id', size: 190, cell: (c) => <code>{c.getValue()}</code> }),
        col.accessor('when', { header: 'When', size: 220 }),
        col.accessor('text', { header: 'Text', size: 300, meta: { grow: true } }),
        col.accessor('replies', { header: 'Replies', size: 90, meta: { numeric: true } }),
        col.accessor('likes', { header: 'Likes', size: 90, meta: { numeric: true } }),
      ] as ColumnDef<Row, unknown>[],
    [],
  );
  return (
    <div className="view">
      <PageHeader title="Table check" subtitle={`${fmtInt(count)} rows, virtualised`} />
      <DataTable label="Benchmark rows" data={data} columns={columns} getRowId={(r) => r.id} height={600} />
    </div>
  );
}
