import { useState, type FormEvent } from 'react';
import { api, page } from '../../api/client';
import type { Order } from '../../api/types';
import { Button, StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { CheckoutBalance } from './checkout-balance';
import { RefundDialog } from './refund-dialog';
import { StatusList } from './status-list';
import { setQuery, useLocation } from '../../lib/router';

const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED', 'EXPIRED'] as const;
const REFUNDABLE = new Set(['PAID', 'PARTIALLY_REFUNDED']);

/** Finds an order by the merchant's own reference (exact, ?ref= in the address; issue 29 item 6). */
function OrderRefSearch({ value }: { value: string }) {
  const [text, setText] = useState(value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery({ ref: text.trim() || undefined, page: undefined });
  };
  return (
    <form className="filters" role="search" aria-label="Find an order" onSubmit={submit}>
      <div className="field" style={{ maxWidth: '20rem' }}>
        <label htmlFor="order-ref">Your order reference</label>
        <input id="order-ref" type="search" value={text} placeholder="order-1042" onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="field" style={{ alignSelf: 'flex-end' }}>
        <Button type="submit" small>
          Find order
        </Button>
      </div>
    </form>
  );
}

/** `mayRefund` (issue 30): only owner, admin and finance members refund. */
export function Orders({ mayRefund = true }: { mayRefund?: boolean }) {
  const [refunding, setRefunding] = useState<Order | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const ref = useLocation().query.get('ref') ?? '';
  return (
    <>
      <CheckoutBalance refreshKey={refreshKey} />
      <OrderRefSearch value={ref} />
      <StatusList
        key={ref}
        id="orders"
        title={ref ? `Orders with reference “${ref}”` : 'Orders'}
        statuses={ORDER_STATUSES}
        load={(query) => page<Order[]>(api.GET('/api/commerce/checkout/orders', { params: { query: { ...query, ...(ref ? { externalOrderRef: ref } : {}) } } }))}
        emptyTitle={ref ? `No order with the reference “${ref}”` : 'No orders'}
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
