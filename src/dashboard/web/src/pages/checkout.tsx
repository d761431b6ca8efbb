import { PageHead } from '../components/ui';
import { canDo, type Viewer } from '../lib/access';
import { setQuery, useLocation } from '../lib/router';
import { Orders } from './checkout/orders';
import { PaymentLinks } from './checkout/payment-links';
import { Subscriptions } from './checkout/subscriptions';

export function CheckoutPage({ viewer }: { viewer: Viewer }) {
  const { query } = useLocation();
  const tab = query.get('tab') ?? 'links';
  return (
    <>
      <PageHead title="Checkout" lede="Payments your buyers made, recurring subscriptions, and links you can share or embed." />
      <div className="tabs" role="tablist" aria-label="Checkout">
        {[
          ['links', 'Payment links'],
          ['orders', 'Orders'],
          ['subscriptions', 'Subscriptions'],
        ].map(([value, label]) => (
          <button
            key={value}
            role="tab"
            aria-selected={tab === value}
            onClick={() => setQuery({ tab: value === 'links' ? undefined : value, status: undefined, page: undefined, order: undefined })}
          >
            {label}
          </button>
        ))}
      </div>
      {tab === 'orders' ? (
        <Orders mayRefund={canDo(viewer, 'money')} />
      ) : tab === 'subscriptions' ? (
        <Subscriptions mayCancel={canDo(viewer, 'money')} />
      ) : (
        <PaymentLinks mayCreate={canDo(viewer, 'manage')} />
      )}
    </>
  );
}
