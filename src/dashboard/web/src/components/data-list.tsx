import { useState, type CSSProperties, type ReactNode } from 'react';
import type { Meta } from '../api/client';
import type { Resource } from '../lib/use-resource';
import { ListState, Pager, useAction } from './ui';

/** A list as the API answers it: the items alone, or one page of them with its `meta`. */
export type Listing<T> = T[] | { data: T[]; meta: Meta | null };

const itemsOf = <T,>(listing: Listing<T> | undefined): T[] | undefined => (listing === undefined || Array.isArray(listing) ? listing : listing.data);
const metaOf = <T,>(listing: Listing<T> | undefined): Meta | null => (listing === undefined || Array.isArray(listing) ? null : listing.meta);

/**
 * Every dashboard list: loading, error (with "Try again"), empty, the items, and the pager when the listing is paged.
 * `select` narrows the loaded items (e.g. only the active keys) without a second request.
 */
export function DataList<T>({
  resource,
  empty,
  select,
  onPage,
  children,
}: {
  resource: Resource<Listing<T>>;
  empty: ReactNode;
  select?: (items: T[]) => T[];
  onPage?: (page: number) => void;
  children: (items: T[]) => ReactNode;
}) {
  const items = itemsOf(resource.data);
  return (
    <>
      <ListState resource={{ ...resource, data: items && select ? select(items) : items }} empty={empty}>
        {children}
      </ListState>
      {onPage ? <Pager meta={metaOf(resource.data)} onPage={onPage} /> : null}
    </>
  );
}

export interface Column<T> {
  /** The column head; also each cell's `data-label`, which the stacked small-screen layout shows. */
  header: string;
  cell: (item: T) => ReactNode;
  /** Right-aligned figures. */
  num?: boolean;
  className?: string;
}

/** A responsive table (rows stack into labelled cards on a phone); `actions` fills a last, unlabelled column. */
export function Table<T>({
  items,
  columns,
  rowKey,
  rowProps,
  actions,
}: {
  items: T[];
  columns: Column<T>[];
  rowKey: (item: T) => string;
  rowProps?: (item: T) => Record<`data-${string}`, string>;
  actions?: (item: T) => ReactNode;
}) {
  const cellClass = (column: Column<T>) => [column.className, column.num ? 'num' : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="table-wrap">
      <table className="responsive">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} className={column.num ? 'num' : undefined}>
                {column.header}
              </th>
            ))}
            {actions ? (
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={rowKey(item)} {...rowProps?.(item)}>
              {columns.map((column) => (
                <td key={column.header} data-label={column.header} className={cellClass(column)}>
                  {column.cell(item)}
                </td>
              ))}
              {actions ? (
                <td className="actions">
                  <span className="row" style={{ justifyContent: 'flex-end' }}>
                    {actions(item)}
                  </span>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A `DataList` shown as a `Table`. */
export function DataTable<T>({ resource, empty, select, onPage, ...table }: Omit<Parameters<typeof DataList<T>>[0], 'children'> & Omit<Parameters<typeof Table<T>>[0], 'items'>) {
  return (
    <DataList resource={resource} empty={empty} select={select} onPage={onPage}>
      {(items) => <Table items={items} {...table} />}
    </DataList>
  );
}

/** A plain list of items, one per bordered line. */
export function ItemList<T>({
  items,
  itemKey,
  className,
  itemStyle,
  itemProps,
  children,
}: {
  items: T[];
  itemKey: (item: T) => string;
  className?: string;
  itemStyle?: CSSProperties;
  itemProps?: (item: T) => Record<string, string | undefined>;
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className={className} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {items.map((item) => (
        <li key={itemKey(item)} {...itemProps?.(item)} style={{ borderTop: '1px solid var(--line)', padding: '0.75rem 0', ...itemStyle }}>
          {children(item)}
        </li>
      ))}
    </ul>
  );
}

/** A select that filters a list: "any" first, then the choices. */
export function FilterSelect({
  id,
  label,
  value,
  anyLabel,
  options,
  onChange,
  style,
}: {
  id: string;
  label: string;
  value: string;
  anyLabel: string;
  options: readonly (readonly [value: string, label: string])[];
  onChange: (value: string) => void;
  style?: CSSProperties;
}) {
  return (
    <div className="field" style={style}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{anyLabel}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * An action on one list item that asks first: `ask(item)` opens the dialog (clearing an earlier error), the dialog's
 * confirm runs `action(item)` and closes it once it succeeded; a failure stays in the dialog.
 */
export function useConfirmedAction<T>(action: (item: T) => Promise<unknown>) {
  const [subject, setSubject] = useState<T | null>(null);
  const act = useAction(async (item: T) => {
    await action(item);
    setSubject(null);
  });
  return {
    subject,
    busy: act.busy,
    error: act.error,
    ask: (item: T) => (act.setError(null), setSubject(item)),
    close: () => setSubject(null),
    /** Spread into `<Confirm>`. */
    dialog: {
      open: subject !== null,
      busy: act.busy,
      error: act.error,
      onConfirm: () => {
        if (subject !== null) void act.run(subject);
      },
      onCancel: () => setSubject(null),
    },
  };
}

/** A success message, announced politely. */
export function Notice({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <div className="alert success" role="status">
      {children}
    </div>
  );
}
