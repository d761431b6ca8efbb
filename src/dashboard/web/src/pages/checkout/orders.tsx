import { useState } from 'react';
import { api, page } from '../../api/client';
import type { Order } from '../../api/types';
import { Button, StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { CheckoutBalance } from './checkout-balance';
import { RefundDialog } from './refund-dialog';
import { StatusList } from './status-list';

const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED', 'EXPIRED'] as const;
const REFUNDABLE = new Set(['PAID', 'PARTIALLY_REFUNDED']);

/** `mayRefund` (issue 30): only owner, admin and finance members refund. */
export function Orders({ mayRefund = true }: { mayRefund?: boolean }) {
  const [refunding, setRefunding] = useState<Order | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  return (
    <>
      <CheckoutBalance refreshKey={refreshKey} />
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
          {
            header: 'Amount',
            num: true,
            cell: (order) => (
              <>
                {money(order.amountMinorUnits, order.currency)}
                {order.refundedMinorUnits !== '0' ? <div className="small muted">Refunded {money(order.refundedMinorUnits, order.currency)}</div> : null}
              </>
            ),
          },
          { header: 'Created', cell: (order) => <Time iso={order.createdAt} /> },
        ]}
        refreshKey={refreshKey}
        actions={(order) =>
          !mayRefund ? null : REFUNDABLE.has(order.status) ? (
            <Button small onClick={() => setRefunding(order)} aria-label={`Refund order ${order.id}`}>
              Refund
            </Button>
          ) : order.status === 'REFUNDED' ? (
            <Button small variant="ghost" onClick={() => setRefunding(order)} aria-label={`Refunds of order ${order.id}`}>
              Refunds
            </Button>
          ) : null
        }
      />
      <RefundDialog order={refunding} onClose={() => setRefunding(null)} onRefunded={() => setRefreshKey((k) => k + 1)} />
    </>
  );
}
