import { api, page } from '../../api/client';
import type { Subscription } from '../../api/types';
import { DataTable } from '../../components/data-list';
import { EmptyState, StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { StatusFilter, useStatusAndPage } from './status-list';

const SUBSCRIPTION_STATUSES = ['ACTIVE', 'CANCELLED'] as const;

export function Subscriptions() {
  const { status, pageNumber, onPage } = useStatusAndPage(SUBSCRIPTION_STATUSES);
  const subscriptions = useResource(
    () => page<Subscription[]>(api.GET('/api/commerce/checkout/subscriptions', { params: { query: { status: status || undefined, page: pageNumber, limit: 20 } } })),
    [status, pageNumber],
  );
  return (
    <section className="panel" aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title" className="visually-hidden">
        Subscriptions
      </h2>
      <StatusFilter statuses={SUBSCRIPTION_STATUSES} value={status} />
      <DataTable
        resource={subscriptions}
        onPage={onPage}
        empty={<EmptyState title="No subscriptions">{status ? 'Nothing with this status.' : 'Subscriptions appear when a buyer pays a recurring checkout.'}</EmptyState>}
        rowKey={(subscription) => subscription.subscriptionId}
        columns={[
          { header: 'Subscription', cell: (subscription) => <code>{subscription.subscriptionId}</code> },
          { header: 'Status', cell: (subscription) => <StatusBadge status={subscription.status} /> },
          { header: 'Every', cell: (subscription) => humanize(subscription.intervalUnit) },
          { header: 'Amount', num: true, cell: (subscription) => money(subscription.amountMinorUnits, subscription.currency) },
          { header: 'Current period ends', cell: (subscription) => <Time iso={subscription.currentPeriodEnd} /> },
        ]}
      />
    </section>
  );
}
