import { api, page } from '../../api/client';
import type { Order } from '../../api/types';
import { StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { StatusList } from './status-list';

const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'FAILED', 'EXPIRED'] as const;

export function Orders() {
  return (
    <StatusList
      id="orders"
      title="Orders"
      statuses={ORDER_STATUSES}
      load={(query) => page<Order[]>(api.GET('/api/commerce/checkout/orders', { params: { query } }))}
      emptyTitle="No orders"
      emptyText="Orders appear when buyers start paying."
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
  );
}
