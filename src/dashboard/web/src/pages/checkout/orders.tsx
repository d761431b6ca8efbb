import { api, page } from '../../api/client';
import type { Order } from '../../api/types';
import { DataTable } from '../../components/data-list';
import { EmptyState, StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { StatusFilter, useStatusAndPage } from './status-list';

const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'FAILED', 'EXPIRED'] as const;

export function Orders() {
  const { status, pageNumber, onPage } = useStatusAndPage(ORDER_STATUSES);
  const orders = useResource(
    () => page<Order[]>(api.GET('/api/commerce/checkout/orders', { params: { query: { status: status || undefined, page: pageNumber, limit: 20 } } })),
    [status, pageNumber],
  );
  return (
    <section className="panel" aria-labelledby="orders-title">
      <h2 id="orders-title" className="visually-hidden">
        Orders
      </h2>
      <StatusFilter statuses={ORDER_STATUSES} value={status} />
      <DataTable
        resource={orders}
        onPage={onPage}
        empty={<EmptyState title="No orders">{status ? 'Nothing with this status.' : 'Orders appear when buyers start paying.'}</EmptyState>}
        rowKey={(order) => order.id}
        columns={[
          {
            header: 'Order',
            cell: (order) => (
              <>
                <code>{order.id}</code>
                {order.externalOrderRef ? <div className="small muted">{order.externalOrderRef}</div> : null}
              </>
            ),
          },
          { header: 'Status', cell: (order) => <StatusBadge status={order.status} /> },
          { header: 'Payment', cell: (order) => (order.card ? `${humanize(order.card.brand)} ···· ${order.card.last4}` : humanize(order.provider)) },
          { header: 'Amount', num: true, cell: (order) => money(order.amountMinorUnits, order.currency) },
          { header: 'Created', cell: (order) => <Time iso={order.createdAt} /> },
        ]}
      />
    </section>
  );
}
