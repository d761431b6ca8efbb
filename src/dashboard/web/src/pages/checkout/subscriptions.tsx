import { api, page } from '../../api/client';
import type { Subscription } from '../../api/types';
import { StatusBadge } from '../../components/ui';
import { humanize, money, Time } from '../../lib/format';
import { StatusList } from './status-list';

const SUBSCRIPTION_STATUSES = ['ACTIVE', 'CANCELLED'] as const;

export function Subscriptions() {
  return (
    <StatusList
      id="subscriptions"
      title="Subscriptions"
      statuses={SUBSCRIPTION_STATUSES}
      load={(query) => page<Subscription[]>(api.GET('/api/commerce/checkout/subscriptions', { params: { query } }))}
      emptyTitle="No subscriptions"
      emptyText="Subscriptions appear when a buyer pays a recurring checkout."
      rowKey={(subscription) => subscription.subscriptionId}
      columns={[
        { header: 'Subscription', cell: (subscription) => <code>{subscription.subscriptionId}</code> },
        { header: 'Status', cell: (subscription) => <StatusBadge status={subscription.status} /> },
        { header: 'Every', cell: (subscription) => humanize(subscription.intervalUnit) },
        { header: 'Amount', num: true, cell: (subscription) => money(subscription.amountMinorUnits, subscription.currency) },
        { header: 'Current period ends', cell: (subscription) => <Time iso={subscription.currentPeriodEnd} /> },
      ]}
    />
  );
}
