import { useState } from 'react';
import { api, data, page } from '../../api/client';
import type { Subscription } from '../../api/types';
import { useConfirmedAction } from '../../components/data-list';
import { Button, Confirm, StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { setQuery } from '../../lib/router';
import { EVERY } from './order-detail';
import { StatusList } from './status-list';

const SUBSCRIPTION_STATUSES = ['ACTIVE', 'CANCELLED'] as const;
const WHY: Record<string, string> = { BUYER_REQUEST: 'by the buyer', MERCHANT_REQUEST: 'by you', PAYMENT_FAILED: 'after 3 declined renewals' };

const cardOf = (s: Subscription) => `${humanize(s.card.brand)} ···· ${s.card.last4}`;
const priceOf = (s: Subscription) => `${money(s.amountMinorUnits, s.currency)} ${EVERY[s.intervalUnit] ?? humanize(s.intervalUnit)}`;
const customerOf = (s: Subscription) => s.externalOrderRef ?? 'No reference';

/**
 * The merchant's subscriptions (issue 29 item 6): who each is for (the reference on the order that started it), the card,
 * the price, the next charge; `mayCancel` (owner, admin, finance) cancels one after a dialog that says what stops.
 */
export function Subscriptions({ mayCancel = true }: { mayCancel?: boolean }) {
  const [refreshKey, setRefreshKey] = useState(0);
  const [done, setDone] = useState<Subscription | null>(null);
  const cancel = useConfirmedAction(async (s: Subscription) => {
    const cancelled = await data<Subscription>(
      api.POST('/api/commerce/integration/checkout/subscriptions/{subscriptionId}/cancel', { params: { path: { subscriptionId: s.subscriptionId } } }),
    );
    setDone(cancelled);
    setRefreshKey((k) => k + 1);
  });
  const s = cancel.subject;
  return (
    <>
      {done ? (
        <div className="alert success" role="status">
          The subscription of {customerOf(done)} is cancelled: {cardOf(done)} will not be charged again.
        </div>
      ) : null}
      <StatusList
        id="subscriptions"
        title="Subscriptions"
        statuses={SUBSCRIPTION_STATUSES}
        load={(query) => page<Subscription[]>(api.GET('/api/commerce/checkout/subscriptions', { params: { query } }))}
        emptyTitle="No subscriptions"
        emptyText="Subscriptions appear when a buyer pays a recurring checkout."
        rowKey={(sub) => sub.subscriptionId}
        refreshKey={refreshKey}
        columns={[
          {
            header: 'Customer',
            cell: (sub) => (
              <>
                {sub.foundingOrderId ? (
                  <a
                    href={`/dashboard/checkout?tab=orders&order=${encodeURIComponent(sub.foundingOrderId)}`}
                    onClick={(e) => (e.preventDefault(), setQuery({ tab: 'orders', order: sub.foundingOrderId!, status: undefined, page: undefined }))}
                  >
                    {customerOf(sub)}
                  </a>
                ) : (
                  customerOf(sub)
                )}
                <div className="small muted">
                  <code>{sub.subscriptionId}</code>
                </div>
              </>
            ),
          },
          { header: 'Card', cell: (sub) => <span className="nowrap">{cardOf(sub)}</span> },
          { header: 'Status', cell: (sub) => <StatusBadge status={sub.status} /> },
          { header: 'Price', num: true, cell: (sub) => priceOf(sub) },
          {
            header: 'Next charge',
            cell: (sub) =>
              sub.status === 'ACTIVE' ? (
                <Time iso={sub.currentPeriodEnd} />
              ) : (
                <>
                  None
                  <div className="small muted">
                    Cancelled {sub.cancellationReason ? (WHY[sub.cancellationReason] ?? humanize(sub.cancellationReason)) : ''} on <Time iso={sub.cancelledAt} />
                  </div>
                </>
              ),
          },
        ]}
        actions={(sub) =>
          mayCancel && sub.status === 'ACTIVE' ? (
            <Button small variant="danger-ghost" onClick={() => (setDone(null), cancel.ask(sub))} aria-label={`Cancel the subscription of ${customerOf(sub)}`}>
              Cancel
            </Button>
          ) : null
        }
      />
      <Confirm {...cancel.dialog} title={s ? `Cancel the subscription of ${customerOf(s)}?` : ''} confirmLabel="Cancel subscription" cancelLabel="Keep subscription">
        {s ? (
          <>
            <p>
              {cardOf(s)} will no longer be charged {priceOf(s)}. The next charge, {money(s.amountMinorUnits, s.currency)} on <Time iso={s.currentPeriodEnd} />, will not be made.
            </p>
            <p className="small muted">
              What the buyer already paid stays paid (refund an order from its page if needed). The buyer is not emailed; a cancelled subscription cannot be restarted.
            </p>
          </>
        ) : null}
      </Confirm>
    </>
  );
}
