import { FilterSelect } from '../../components/data-list';
import { humanize } from '../../lib/format';
import { setQuery, useLocation } from '../../lib/router';

/** The status filter and page of a Checkout list, kept in the address so a reload or a shared link shows the same. */
export function useStatusAndPage<S extends string>(_statuses: readonly S[]) {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as S | '';
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  return { status, pageNumber, onPage: (p: number) => setQuery({ page: String(p) }) };
}

export function StatusFilter({ statuses, value }: { statuses: readonly string[]; value: string }) {
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
