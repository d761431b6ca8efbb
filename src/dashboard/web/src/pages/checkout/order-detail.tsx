import { useState } from 'react';
import { api, data } from '../../api/client';
import type { Order } from '../../api/types';
import { Button, LoadError, Loading, StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { setQuery } from '../../lib/router';
import { useResource } from '../../lib/use-resource';
import { RefundDialog } from './refund-dialog';

const REFUNDABLE = new Set(['PAID', 'PARTIALLY_REFUNDED']);
/** How often a subscription charges, in words. */
export const EVERY: Record<string, string> = { MONTHLY: 'every month', YEARLY: 'every year' };

/** How an order was paid, in words. */
export const paidWith = (order: Order) => (order.card ? `${humanize(order.card.brand)} ···· ${order.card.last4}` : humanize(order.provider));

/** What an order is to a subscription: the one that started it, a renewal of it, or nothing. */
export function subscriptionRole(order: Order): string | null {
  if (order.renewal) return `Renewal ${order.renewal.periodIndex}`;
  if (order.subscriptionIntervalUnit) return `Subscription · ${humanize(order.subscriptionIntervalUnit)}`;
  return null;
}

/**
 * One order in full (issue 29 item 6), opened from the Orders list (`?order=<id>` in the address, so it can be shared
 * or reloaded): amounts in its currency, dates, how it was paid, its subscription, the latest decline, refunds.
 */
export function OrderDetail({ orderId, mayRefund }: { orderId: string; mayRefund: boolean }) {
  const [version, setVersion] = useState(0);
  const [refunding, setRefunding] = useState<Order | null>(null);
  const order = useResource(() => data<Order>(api.GET('/api/commerce/checkout/orders/{orderId}', { params: { path: { orderId } } })), [orderId, version]);
  const back = (
    <Button small onClick={() => setQuery({ order: undefined })}>
      ← All orders
    </Button>
  );
  if (order.error)
    return (
      <section className="panel" aria-label="Order">
        {back}
        <LoadError error={order.error} retry={order.reload} />
      </section>
    );
  if (!order.data) return <Loading label="Loading the order" />;
  const o = order.data;
  const role = subscriptionRole(o);
  return (
    <section className="panel" aria-labelledby="order-title">
      <div className="spread" style={{ marginBottom: '1rem' }}>
        {back}
        {mayRefund && (REFUNDABLE.has(o.status) || o.status === 'REFUNDED') ? (
          <Button small onClick={() => setRefunding(o)}>
            {o.status === 'REFUNDED' ? 'Refunds' : 'Refund'}
          </Button>
        ) : null}
      </div>
      <h2 id="order-title">
        {o.externalOrderRef ? `Order ${o.externalOrderRef}` : 'Order'} <StatusBadge status={o.status} />
      </h2>
      <dl className="facts" style={{ marginTop: '1rem' }}>
        <dt>Amount</dt>
        <dd>{money(o.amountMinorUnits, o.currency)}</dd>
        {o.refundedMinorUnits !== '0' ? (
          <>
            <dt>Refunded</dt>
            <dd>{money(o.refundedMinorUnits, o.currency)}</dd>
          </>
        ) : null}
        <dt>Your reference</dt>
        <dd>{o.externalOrderRef ?? <span className="muted">None</span>}</dd>
        <dt>Order id</dt>
        <dd>
          <code>{o.id}</code>
        </dd>
        <dt>Paid with</dt>
        <dd>{o.card || o.paidAt ? paidWith(o) : <span className="muted">Not paid</span>}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={o.createdAt} />
        </dd>
        <dt>Paid</dt>
        <dd>
          <Time iso={o.paidAt} />
        </dd>
        {!o.paidAt && o.expiresAt ? (
          <>
            <dt>Expires</dt>
            <dd>
              <Time iso={o.expiresAt} />
            </dd>
          </>
        ) : null}
        <dt>Checkout</dt>
        <dd>{o.checkoutMode === 'EMBEDDED' ? 'Embedded on your page' : 'Hosted payment page'}</dd>
        {role ? (
          <>
            <dt>Subscription</dt>
            <dd>
              {o.renewal
                ? `Renewal of period ${o.renewal.periodIndex} (attempt ${o.renewal.attempt})`
                : `Started a subscription, ${money(o.amountMinorUnits, o.currency)} ${EVERY[o.subscriptionIntervalUnit ?? ''] ?? ''}`}
              {o.subscriptionId ? (
                <div className="small">
                  <a
                    href="/dashboard/checkout?tab=subscriptions"
                    onClick={(e) => (
                      e.preventDefault(),
                      setQuery({ tab: 'subscriptions', order: undefined, status: undefined, page: undefined, ref: undefined, from: undefined, to: undefined })
                    )}
                  >
                    <code>{o.subscriptionId}</code> in Subscriptions
                  </a>
                </div>
              ) : null}
            </dd>
          </>
        ) : null}
        {o.lastDecline ? (
          <>
            <dt>Last decline</dt>
            <dd>
              {o.lastDecline.reason} <span className="small muted">({o.lastDecline.declineCode})</span>
            </dd>
          </>
        ) : null}
        <dt>Paid out to you</dt>
        <dd>{o.payoutId ? <code>{o.payoutId}</code> : <span className="muted">Not yet</span>}</dd>
      </dl>
      <RefundDialog order={refunding} onClose={() => setRefunding(null)} onRefunded={() => setVersion((v) => v + 1)} />
    </section>
  );
}
