import { useState } from 'react';
import { api, data } from '../api/client';
import type { Activity, Balance, Me } from '../api/types';
import { Button, EmptyState, ListState, PageHead } from '../components/ui';
import { humanize, money, Time } from '../lib/format';
import { Link } from '../lib/router';
import { canSee, type Viewer } from '../lib/access';
import { useResource } from '../lib/use-resource';

export function HomePage({ me, viewer }: { me: Me; viewer: Viewer }) {
  const balances = useResource(() => data<Balance[]>(api.GET('/api/commerce/balance')));
  return (
    <>
      <PageHead title={`Welcome, ${me.companyName}`} lede="Your balances and what happened lately." />
      <section aria-labelledby="balances-title">
        <h2 id="balances-title" className="visually-hidden">
          Balances
        </h2>
        <ListState
          resource={balances}
          empty={
            <div className="panel">
              <EmptyState title="No balance yet">
                Balances appear per currency once money moves: a Split is funded, a checkout is paid, or the sandbox tops you up.{' '}
                {canSee(viewer, '/splits') ? <Link to="/splits">See your Splits</Link> : null}
              </EmptyState>
            </div>
          }
        >
          {(items) => (
            <div className="cards">
              {items.map((balance) => (
                <div className="stat" key={balance.currency}>
                  <div className="label">Available · {balance.currency}</div>
                  <div className="value">{money(balance.availableCents, balance.currency)}</div>
                  <BalanceFigures balance={balance} />
                </div>
              ))}
            </div>
          )}
        </ListState>
      </section>
      <RecentActivity viewer={viewer} />
    </>
  );
}

/**
 * What else the balance holds besides what is available (issue 29 item 6): the contractors' money a funded Split
 * holds here, checkout revenue not paid out yet, margins held, fee reserves; a figure shows when it is not zero
 * (Reserved always). Read from the same GET /api/commerce/balance line.
 */
function BalanceFigures({ balance }: { balance: Balance }) {
  const figures: [string, string | undefined, string][] = [
    ['Reserved for payouts', balance.reservedCents, 'reserved'],
    ['Owed to contractors', balance.owedToContractorsCents, 'owed'],
    ['Checkout revenue not paid out', balance.checkoutBalanceCents, 'checkout'],
    ['Checkout payouts on their way', balance.checkoutPayoutsInTransitCents, 'checkout-in-transit'],
    ['Margin held', balance.marginHeldCents, 'margin'],
    ['Set aside for fees', balance.reservedForFeesCents, 'fees'],
  ];
  return (
    <dl className="facts amounts small" style={{ marginTop: '0.5rem' }} data-testid={`balance-figures-${balance.currency}`}>
      {figures
        .filter(([, cents, key]) => cents !== undefined && (key === 'reserved' || cents !== '0'))
        .map(([label, cents, key]) => (
          <div key={key} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{money(cents!, balance.currency)}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Where an activity line leads (a page the viewer may open), or nowhere. */
function linkOf(item: Activity, viewer: Viewer): { to: string; label: string } | null {
  const target =
    item.resource.kind === 'split'
      ? { to: `/splits/${item.resource.id}`, label: 'Open the Split' }
      : item.resource.kind === 'order'
        ? { to: '/checkout?tab=orders', label: 'See orders' }
        : item.resource.kind === 'payout_embed_session'
          ? { to: '/payouts', label: 'See payouts' }
          : { to: '/api-keys', label: 'See API keys' };
  return canSee(viewer, target.to.split('?')[0]!) ? target : null;
}

function RecentActivity({ viewer }: { viewer: Viewer }) {
  // 10 lines first; "Show more" reads up to the API's 100.
  const [limit, setLimit] = useState(10);
  const activity = useResource(() => data<Activity[]>(api.GET('/api/commerce/activity', { params: { query: { limit } } })), [limit]);
  return (
    <section className="panel" aria-labelledby="activity-title">
      <div className="panel-head">
        <h2 id="activity-title">Recent activity</h2>
      </div>
      <ListState resource={activity} empty={<EmptyState title="Nothing yet">Your company&rsquo;s Splits, payments and keys will show up here as things happen.</EmptyState>}>
        {(items) => (
          <ul className="timeline" data-testid="activity">
            {items.map((item, index) => (
              <li key={`${item.occurredAt}-${index}`}>
                <div className="spread">
                  <span style={{ fontWeight: 550 }}>{item.summary || humanize(item.type)}</span>
                  <span className="small muted">
                    <Time iso={item.occurredAt} />
                  </span>
                </div>
                {linkOf(item, viewer) ? (
                  <div className="small">
                    <Link to={linkOf(item, viewer)!.to}>{linkOf(item, viewer)!.label}</Link>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </ListState>
      {activity.data && activity.data.length >= limit && limit < 100 ? (
        <p style={{ marginBottom: 0 }}>
          <Button small busy={activity.loading} onClick={() => setLimit(100)}>
            Show more
          </Button>
        </p>
      ) : null}
    </section>
  );
}
