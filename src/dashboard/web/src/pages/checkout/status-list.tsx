import type { ReactNode } from 'react';
import type { Meta } from '../../api/client';
import { DataTable, FilterSelect, type Column } from '../../components/data-list';
import { EmptyState } from '../../components/ui';
import { humanize } from '../../lib/format';
import { setQuery, useLocation } from '../../lib/router';
import { useResource } from '../../lib/use-resource';

function StatusFilter({ statuses, value }: { statuses: readonly string[]; value: string }) {
  return (
    <div className="filters">
      <FilterSelect
        id="checkout-status"
        label="Status"
        value={value}
        anyLabel="All statuses"
        options={statuses.map((s) => [s, humanize(s)] as const)}
        onChange={(status) => setQuery({ status: status || undefined, page: undefined })}
        style={{ maxWidth: '16rem' }}
      />
    </div>
  );
}

/**
 * A Checkout list filtered by status, 20 a page; the status and page live in the address, so a reload or a shared
 * link shows the same.
 */
export function StatusList<T, S extends string>({
  id,
  title,
  statuses,
  load,
  emptyTitle,
  emptyText,
  rowKey,
  columns,
  actions,
  refreshKey = 0,
}: {
  id: string;
  title: string;
  statuses: readonly S[];
  load: (query: { status: S | undefined; page: number; limit: number }) => Promise<{ data: T[]; meta: Meta | null }>;
  emptyTitle: string;
  /** Shown when no status is chosen. */
  emptyText: string;
  rowKey: (item: T) => string;
  columns: Column<T>[];
  /** Buttons of a row (the Orders list's refund). */
  actions?: (item: T) => ReactNode;
  /** Changing it loads the page again (after an action changed a row). */
  refreshKey?: number;
}) {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as S | '';
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const items = useResource(() => load({ status: status || undefined, page: pageNumber, limit: 20 }), [status, pageNumber, refreshKey]);
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="visually-hidden">
        {title}
      </h2>
      <StatusFilter statuses={statuses} value={status} />
      <DataTable
        resource={items}
        onPage={(p) => setQuery({ page: String(p) })}
        empty={<EmptyState title={emptyTitle}>{status ? 'Nothing with this status.' : emptyText}</EmptyState>}
        rowKey={rowKey}
        columns={columns}
        actions={actions}
      />
    </section>
  );
}
