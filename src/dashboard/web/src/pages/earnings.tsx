import { useState } from 'react';
import { api, data } from '../api/client';
import { isPending } from '../api/pending';
import type { Earnings, Me } from '../api/types';
import { Badge, Button, ComingSoon, Confirm, EmptyState, LoadError, Loading, PageHead, useAction } from '../components/ui';
import { money, Time } from '../lib/format';
import { useResource } from '../lib/use-resource';

export function EarningsPage({ me }: { me: Me }) {
  if (isPending('/api/commerce/me/earnings')) {
    return (
      <>
        <PageHead title="Earnings" lede={`Signed in as ${me.email}`} />
        <ComingSoon what="Your service balance, the transfers you received and withdrawals to your wallet will appear here." />
      </>
    );
  }
  return <EarningsView me={me} />;
}

function EarningsView({ me }: { me: Me }) {
  const earnings = useResource(() => data<Earnings>(api.GET('/api/commerce/me/earnings')));
  const [withdrawing, setWithdrawing] = useState<{ currency: string; availableCents: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const withdraw = useAction(async (balance: { currency: string; availableCents: string }) => {
    await data(api.POST('/api/commerce/me/withdrawals', { body: { amountCents: balance.availableCents, currency: balance.currency } }));
    setWithdrawing(null);
    setNotice(`${money(balance.availableCents, balance.currency)} is on its way to your wallet.`);
    earnings.reload();
  });
  if (earnings.error && !earnings.data) return <LoadError error={earnings.error} retry={earnings.reload} />;
  if (!earnings.data) return <Loading />;
  const { balances, transfers, wallet } = earnings.data;
  const canWithdraw = Boolean(wallet?.verified && wallet.active);
  return (
    <>
      <PageHead title="Earnings" lede={`Money companies paid you through Paysplit · ${me.email}`} />
      {notice ? (
        <div className="alert success" role="status">
          {notice}
        </div>
      ) : null}
      {balances.length === 0 ? (
        <div className="panel">
          <EmptyState title="No balance yet">When a company pays you through a Split, your share lands here.</EmptyState>
        </div>
      ) : (
        <div className="cards">
          {balances.map((balance) => (
            <div className="stat" key={balance.currency}>
              <div className="label">Service balance · {balance.currency}</div>
              <div className="value" data-testid={`balance-${balance.currency}`}>
                {money(balance.availableCents, balance.currency)}
              </div>
              <Button
                variant="primary"
                small
                disabled={!canWithdraw || balance.availableCents === '0'}
                onClick={() => (withdraw.setError(null), setWithdrawing(balance))}
                style={{ marginTop: '0.6rem' }}
              >
                Withdraw to wallet
              </Button>
            </div>
          ))}
        </div>
      )}
      <section className="panel" aria-labelledby="wallet-title">
        <h2 id="wallet-title">Wallet</h2>
        {wallet ? (
          <p style={{ margin: 0 }}>
            {wallet.email} {wallet.verified ? <Badge tone="good">Verified</Badge> : <Badge tone="warn">Not verified</Badge>}{' '}
            {wallet.active ? null : <Badge tone="bad">Inactive</Badge>}
          </p>
        ) : (
          <p className="muted" style={{ margin: 0 }}>
            No wallet on file. Ask the company that paid you to add your wallet email.
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="transfers-title">
        <h2 id="transfers-title">Transfers received</h2>
        {transfers.length === 0 ? (
          <EmptyState title="No transfers yet" />
        ) : (
          <div className="table-wrap">
            <table className="responsive">
              <thead>
                <tr>
                  <th>From</th>
                  <th>When</th>
                  <th className="num">Amount</th>
                </tr>
              </thead>
              <tbody>
                {transfers.map((transfer) => (
                  <tr key={transfer.id}>
                    <td data-label="From">{transfer.smeCompanyName}</td>
                    <td data-label="When">
                      <Time iso={transfer.occurredAt} />
                    </td>
                    <td data-label="Amount" className="num">
                      {money(transfer.amountCents, transfer.currency)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Confirm
        open={withdrawing !== null}
        title="Withdraw your balance?"
        body={withdrawing && wallet ? `${money(withdrawing.availableCents, withdrawing.currency)} goes to ${wallet.email}.` : ''}
        confirmLabel="Withdraw"
        danger={false}
        busy={withdraw.busy}
        error={withdraw.error}
        onConfirm={() => withdrawing && void withdraw.run(withdrawing)}
        onCancel={() => setWithdrawing(null)}
      />
    </>
  );
}
