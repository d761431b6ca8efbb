import { api, data } from '../../api/client';
import type { Balance } from '../../api/types';
import { ListState } from '../../components/ui';
import { money } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

/**
 * The merchant's checkout money per currency (issue 26, docs/money.md#checkout-money): what is held for it,
 * what payouts delivered and what is on its way. Below zero means refunds took back money already paid out;
 * the next orders' payouts net it first.
 */
export function CheckoutBalance({ refreshKey }: { refreshKey: number }) {
  const balances = useResource(() => data<Balance[]>(api.GET('/api/commerce/balance')), [refreshKey]);
  return (
    <section aria-labelledby="checkout-balance-title" className="checkout-balance">
      <h2 id="checkout-balance-title" className="visually-hidden">
        Checkout balance
      </h2>
      <ListState resource={balances} empty={null}>
        {(items) => {
          const shown = items.filter((b) => b.checkoutBalanceCents !== '0' || b.checkoutPaidOutCents !== '0' || b.checkoutPayoutsInTransitCents !== '0');
          if (shown.length === 0) return null;
          return (
            <div className="cards">
              {shown.map((b) => {
                const owed = b.checkoutBalanceCents.startsWith('-');
                return (
                  <div className="stat" key={b.currency} data-currency={b.currency}>
                    <div className="label">Checkout balance · {b.currency}</div>
                    <div className={`value${owed ? ' negative' : ''}`}>{money(b.checkoutBalanceCents, b.currency)}</div>
                    <div className="sub">
                      Paid out {money(b.checkoutPaidOutCents, b.currency)}
                      {b.checkoutPayoutsInTransitCents !== '0' ? ` · On its way ${money(b.checkoutPayoutsInTransitCents, b.currency)}` : ''}
                    </div>
                    {owed ? <div className="sub">Refunds of money already paid out: your next payouts cover this first.</div> : null}
                  </div>
                );
              })}
            </div>
          );
        }}
      </ListState>
    </section>
  );
}
