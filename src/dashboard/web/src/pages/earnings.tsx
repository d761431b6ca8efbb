import { useState } from 'react';
import { decimalToMinor, minorToDecimal } from '../../../../platform/money/format-amount';
import { api, ApiError, data } from '../api/client';
import type { components } from '../api/schema';
import type { Earnings, Me } from '../api/types';
import { Button, Confirm, EmptyState, LoadError, Loading, PageHead, StatusBadge, useAction } from '../components/ui';
import { money, Time } from '../lib/format';
import { useResource } from '../lib/use-resource';
import { OwedNotice, ReversalsPanel } from './earnings/reversals';
import { UpcomingPanel } from './earnings/upcoming';
import { WalletPanel, walletReady } from './earnings/wallet';

interface Balance {
  currency: string;
  availableCents: string;
}

export function EarningsPage({ me }: { me: Me }) {
  const earnings = useResource(() => data<Earnings>(api.GET('/api/commerce/me/earnings')));
  const upcoming = useResource(() => data<components['schemas']['UpcomingEarningDto'][]>(api.GET('/api/commerce/me/upcoming-earnings')));
  const [withdrawing, setWithdrawing] = useState<Balance | null>(null);
  const [amount, setAmount] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const withdraw = useAction(async (balance: Balance, amountCents: string) => {
    await data(api.POST('/api/commerce/me/withdrawals', { body: { amountCents, currency: balance.currency } }));
    setWithdrawing(null);
    setNotice(`${money(amountCents, balance.currency)} is on its way to your wallet.`);
    earnings.reload();
  });
  if (earnings.error && !earnings.data) return <LoadError error={earnings.error} retry={earnings.reload} />;
  if (!earnings.data) return <Loading />;
  const { balances, transfers, withdrawals, wallet, pendingWallet, reversals } = earnings.data;
  const canWithdraw = walletReady(wallet);
  const amountCents = withdrawing ? decimalToMinor(amount, withdrawing.currency) : null;
  const amountProblem =
    withdrawing && (amountCents === null || amountCents === '0')
      ? 'Enter an amount above zero.'
      : withdrawing && amountCents !== null && BigInt(amountCents) > BigInt(withdrawing.availableCents)
        ? `At most ${money(withdrawing.availableCents, withdrawing.currency)}.`
        : null;
  const fieldError = withdraw.error instanceof ApiError ? withdraw.error.fieldErrors().amountCents : undefined;
  return (
    <>
      <PageHead title="Earnings" lede={`What companies paid you through Paysplit · ${me.email}`} />
      {notice ? (
        <div className="alert success" role="status">
          {notice}
        </div>
      ) : null}
      <OwedNotice balances={balances} />
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
                onClick={() => {
                  withdraw.setError(null);
                  setAmount(minorToDecimal(balance.availableCents, balance.currency));
                  setWithdrawing(balance);
                }}
                style={{ marginTop: '0.6rem' }}
              >
                Withdraw to wallet
              </Button>
            </div>
          ))}
        </div>
      )}
      <WalletPanel
        wallet={wallet}
        pending={pendingWallet}
        onChanged={(message) => {
          setNotice(message);
          earnings.reload();
        }}
      />
      {upcoming.data ? <UpcomingPanel rows={upcoming.data} /> : upcoming.error ? <LoadError error={upcoming.error} retry={upcoming.reload} /> : null}
      <div className="grid-2">
        <section className="panel" aria-labelledby="transfers-title">
          <h2 id="transfers-title">Transfers received</h2>
          {transfers.length === 0 ? (
            <EmptyState title="No transfers yet" />
          ) : (
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {transfers.map((transfer) => (
                <li key={transfer.id} className="spread" style={{ borderTop: '1px solid var(--line)', padding: '0.55rem 0' }}>
                  <span>
                    <strong>{transfer.smeCompanyName}</strong>
                    <div className="small muted">
                      <Time iso={transfer.occurredAt} />
                    </div>
                  </span>
                  <span>{money(transfer.amountCents, transfer.currency)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="panel" aria-labelledby="withdrawals-title">
          <h2 id="withdrawals-title">Withdrawals</h2>
          {withdrawals.length === 0 ? (
            <EmptyState title="No withdrawals yet">Withdraw your balance to your wallet above.</EmptyState>
          ) : (
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="withdrawals">
              {withdrawals.map((withdrawal) => (
                <li key={withdrawal.id} className="spread" style={{ borderTop: '1px solid var(--line)', padding: '0.55rem 0' }}>
                  <span>
                    <strong>{money(withdrawal.amountCents, withdrawal.currency)}</strong>
                    <div className="small muted">
                      <Time iso={withdrawal.requestedAt} />
                    </div>
                  </span>
                  <StatusBadge status={withdrawal.status === 'requested' ? 'PENDING' : withdrawal.status} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {reversals.length > 0 ? <ReversalsPanel reversals={reversals} /> : null}
      <Confirm
        open={withdrawing !== null}
        title="Withdraw to your wallet"
        body={withdrawing && wallet ? `The money goes to ${wallet.email}.` : ''}
        confirmLabel="Withdraw"
        danger={false}
        busy={withdraw.busy}
        error={fieldError ? null : withdraw.error}
        onConfirm={() => withdrawing && amountCents && !amountProblem && void withdraw.run(withdrawing, amountCents)}
        onCancel={() => setWithdrawing(null)}
      >
        <div className="field" style={{ marginTop: '1rem' }}>
          <label htmlFor="withdraw-amount">Amount ({withdrawing?.currency})</label>
          <input
            id="withdraw-amount"
            type="text"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={Boolean(amountProblem ?? fieldError)}
            aria-describedby="withdraw-amount-hint"
          />
          <div className={(amountProblem ?? fieldError) ? 'field-error' : 'hint'} id="withdraw-amount-hint">
            {amountProblem ?? fieldError ?? (withdrawing ? `Available: ${money(withdrawing.availableCents, withdrawing.currency)}` : '')}
          </div>
        </div>
      </Confirm>
    </>
  );
}
