import { useState, type FormEvent } from 'react';
import { api, page } from '../../api/client';
import type { Order } from '../../api/types';
import { Badge, Button, StatusBadge } from '../../components/ui';
import { money, Time } from '../../lib/format';
import { CheckoutBalance } from './checkout-balance';
import { OrderDetail, paidWith, subscriptionRole } from './order-detail';
import { RefundDialog } from './refund-dialog';
import { StatusList } from './status-list';
import { setQuery, useLocation } from '../../lib/router';

const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED', 'EXPIRED'] as const;
const REFUNDABLE = new Set(['PAID', 'PARTIALLY_REFUNDED']);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The day after a YYYY-MM-DD day (UTC): the page's "to" day is inclusive, the API's `to` is exclusive. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Finds orders by the merchant's own reference (exact) and by the days they were created (UTC, both ends included);
 * all three live in the address (?ref=, ?from=, ?to=; issue 29 item 6).
 */
function OrderSearch({ reference, from, to }: { reference: string; from: string; to: string }) {
  const [text, setText] = useState(reference);
  const [fromDay, setFromDay] = useState(from);
  const [toDay, setToDay] = useState(to);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fromDay && toDay && fromDay > toDay) return setError('The first day must not be after the last day.');
    setError(null);
    setQuery({ ref: text.trim() || undefined, from: fromDay || undefined, to: toDay || undefined, page: undefined });
  };
  const clear = () => {
    setText('');
    setFromDay('');
    setToDay('');
    setError(null);
    setQuery({ ref: undefined, from: undefined, to: undefined, page: undefined });
  };
  return (
    <form className="filters" role="search" aria-label="Find orders" onSubmit={submit} noValidate>
      <div className="field" style={{ maxWidth: '20rem' }}>
        <label htmlFor="order-ref">Your order reference</label>
        <input id="order-ref" type="search" value={text} placeholder="order-1042" onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="field" style={{ maxWidth: '14rem' }}>
        <label htmlFor="order-from">Created from (UTC)</label>
        <input
          id="order-from"
          type="date"
          value={fromDay}
          onChange={(e) => setFromDay(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'order-dates-error' : undefined}
        />
      </div>
      <div className="field" style={{ maxWidth: '14rem' }}>
        <label htmlFor="order-to">Created through (UTC)</label>
        <input id="order-to" type="date" value={toDay} onChange={(e) => setToDay(e.target.value)} />
      </div>
      <div className="field row" style={{ alignSelf: 'flex-end', flex: '0 0 auto', minWidth: 0 }}>
        <Button type="submit" small>
          Find orders
        </Button>
        {reference || from || to ? (
          <Button small variant="ghost" onClick={clear}>
            Clear
          </Button>
        ) : null}
      </div>
      {error ? (
        <p className="field-error" id="order-dates-error" role="alert" style={{ flexBasis: '100%', margin: 0 }}>
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** What the list shows, said in words: "Orders with reference “x” created Nov 1 – Nov 30". */
function listTitle(ref: string, from: string, to: string): string {
  const days = from && to ? ` created ${from} to ${to}` : from ? ` created from ${from}` : to ? ` created up to ${to}` : '';
  return `${ref ? `Orders with reference “${ref}”` : 'Orders'}${days}`;
}

/** `mayRefund` (issue 30): only owner, admin and finance members refund. */
export function Orders({ mayRefund = true }: { mayRefund?: boolean }) {
  const [refunding, setRefunding] = useState<Order | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const { query } = useLocation();
  const ref = query.get('ref') ?? '';
  const from = DAY.test(query.get('from') ?? '') ? query.get('from')! : '';
  const to = DAY.test(query.get('to') ?? '') ? query.get('to')! : '';
  const opened = query.get('order');
  if (opened) return <OrderDetail orderId={opened} mayRefund={mayRefund} />;
  const title = listTitle(ref, from, to);
  return (
    <>
      <CheckoutBalance refreshKey={refreshKey} />
      <OrderSearch reference={ref} from={from} to={to} />
      <StatusList
        key={`${ref}|${from}|${to}`}
        id="orders"
        title={title}
        statuses={ORDER_STATUSES}
        load={(q) =>
          page<Order[]>(
            api.GET('/api/commerce/checkout/orders', {
              params: { query: { ...q, ...(ref ? { externalOrderRef: ref } : {}), ...(from ? { from } : {}), ...(to ? { to: dayAfter(to) } : {}) } },
            }),
          )
        }
        emptyTitle={ref || from || to ? `No match: ${title.charAt(0).toLowerCase()}${title.slice(1)}` : 'No orders'}
        emptyText={ref || from || to ? 'Check the reference and the days, or clear the search.' : 'Orders appear when buyers start paying.'}
        rowKey={(order) => order.id}
        columns={[
          {
            header: 'Order',
            cell: (order) => {
              const role = subscriptionRole(order);
              return (
                <>
                  <a href={`/dashboard/checkout?tab=orders&order=${encodeURIComponent(order.id)}`} onClick={(e) => (e.preventDefault(), setQuery({ order: order.id }))}>
                    {order.externalOrderRef ?? <code>{order.id}</code>}
                  </a>
                  {order.externalOrderRef ? (
                    <div className="small muted">
                      <code>{order.id}</code>
                    </div>
                  ) : null}
                  {role ? (
                    <div>
                      <Badge tone="info">{role}</Badge>
                    </div>
                  ) : null}
                </>
              );
            },
          },
          { header: 'Status', cell: (order) => <StatusBadge status={order.status} /> },
          { header: 'Payment', cell: (order) => paidWith(order) },
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
