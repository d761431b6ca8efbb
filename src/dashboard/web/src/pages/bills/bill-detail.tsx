import { useState } from 'react';
import { api, data } from '../../api/client';
import type { Balance, Invoice } from '../../api/types';
import { Button, Confirm, CopyButton, Field, StatusBadge, useAction } from '../../components/ui';
import { money, Time } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

const METHODS: Record<string, string> = { BALANCE: 'Paysplit balance', CARD: 'Card or wallet', BANK_TRANSFER: 'Bank transfer' };
const DIGITS = /^[1-9][0-9]*$/;
const SECTION_GAP = '1.5rem';

/** A whole-currency amount the person typed ("12.50") in minor units, or null. Two decimals, as USD and EUR bills. */
function minorUnits(text: string): string | null {
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const cents = `${match[1]}${(match[2] ?? '').padEnd(2, '0')}`.replace(/^0+(?=\d)/, '');
  return DIGITS.test(cents) ? cents : null;
}

/**
 * One bill: how to pay it (balance with a preview and one confirmation, card on Checkout's page, bank
 * details to quote) and its payment history.
 */
export function BillDetail({
  bill,
  onPaid,
  onPayByCard,
  cardBusy,
  onClose,
  mayPay = true,
}: {
  bill: Invoice;
  onPaid: (paid: { invoiceId: string; amountCents: string; currency: string }) => void;
  onPayByCard: () => void;
  cardBusy: boolean;
  onClose: () => void;
  /** Issue 30: only owner, admin and finance members pay bills; the others are shown the bill without the ways to pay. */
  mayPay?: boolean;
}) {
  const owed = bill.outstandingCents;
  const [amount, setAmount] = useState((Number(owed) / 100).toFixed(2));
  const [preview, setPreview] = useState<{ amountCents: string; key: string } | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const balances = useResource(() => data<Balance[]>(api.GET('/api/commerce/balance')), [bill.id, bill.outstandingCents]);
  const available = balances.data?.find((b) => b.currency === bill.currency)?.availableCents ?? '0';
  const pay = useAction(async (what: { amountCents: string; key: string }) => {
    await data(api.POST('/api/commerce/invoices/{id}/payments', { params: { path: { id: bill.id } }, body: { amountCents: what.amountCents, idempotencyKey: what.key } }));
    setPreview(null);
    onPaid({ invoiceId: bill.id, amountCents: what.amountCents, currency: bill.currency });
  });
  const review = () => {
    const cents = minorUnits(amount);
    if (!cents) return setInvalid('Enter an amount such as 125.00');
    if (BigInt(cents) > BigInt(owed)) return setInvalid(`At most ${money(owed, bill.currency)} is owed`);
    setInvalid(null);
    pay.setError(null);
    setPreview({ amountCents: cents, key: crypto.randomUUID() });
  };
  const unpaid = bill.status !== 'PAID';
  return (
    <section className="panel" aria-labelledby="bill-title">
      <div className="row" style={{ justifyContent: 'space-between', alignItems: 'baseline', flexWrap: 'wrap' }}>
        <h2 id="bill-title">
          Bill <code>{bill.id}</code> <StatusBadge status={bill.status} />
        </h2>
        <Button small onClick={onClose}>
          Close
        </Button>
      </div>
      <dl className="facts">
        <dt>Amount</dt>
        <dd>{money(bill.amountCents, bill.currency)}</dd>
        <dt>Still owed</dt>
        <dd data-testid="bill-outstanding">{money(owed, bill.currency)}</dd>
        <dt>Due</dt>
        <dd>
          <Time iso={bill.dueAt} />
        </dd>
        <dt>Split</dt>
        <dd>
          <code>{bill.splitId}</code>
        </dd>
      </dl>
      {unpaid && mayPay ? (
        <>
          <h3 style={{ marginTop: SECTION_GAP }}>Pay from your Paysplit balance</h3>
          <p className="muted small">Available: {balances.data ? money(available, bill.currency) : '…'}</p>
          <form
            className="row"
            style={{ alignItems: 'flex-end', flexWrap: 'wrap', gap: '0.75rem' }}
            onSubmit={(e) => {
              e.preventDefault();
              review();
            }}
          >
            <Field label={`Amount (${bill.currency})`} error={invalid ?? undefined}>
              {(props) => <input {...props} type="text" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />}
            </Field>
            <Button type="submit" variant="primary">
              Review payment
            </Button>
          </form>
          <h3 style={{ marginTop: SECTION_GAP }}>Pay by card or wallet</h3>
          <p className="muted small">On Paysplit&rsquo;s secure checkout page; the bill updates once the payment goes through.</p>
          <Button onClick={onPayByCard} busy={cardBusy}>
            Pay {money(owed, bill.currency)} by card
          </Button>
          <h3 style={{ marginTop: SECTION_GAP }}>Pay by bank transfer</h3>
          <dl className="facts">
            <dt>Account</dt>
            <dd>{bill.bankTransfer.accountName}</dd>
            <dt>IBAN</dt>
            <dd>
              <code>{bill.bankTransfer.iban}</code>
            </dd>
            <dt>BIC</dt>
            <dd>
              <code>{bill.bankTransfer.bic}</code>
            </dd>
            <dt>Reference</dt>
            <dd>
              <code>{bill.bankTransfer.reference}</code> <CopyButton text={bill.bankTransfer.reference} label="Copy reference" />
            </dd>
          </dl>
        </>
      ) : null}
      <h3 style={{ marginTop: SECTION_GAP }}>Payments</h3>
      {bill.payments.length === 0 ? (
        <p className="muted">No payment yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="responsive">
            <thead>
              <tr>
                <th>When</th>
                <th>How</th>
                <th className="num">Amount</th>
                <th className="num">Credited back</th>
              </tr>
            </thead>
            <tbody>
              {bill.payments.map((payment) => (
                <tr key={payment.paymentId}>
                  <td data-label="When">
                    <Time iso={payment.receivedAt} />
                  </td>
                  <td data-label="How">{METHODS[payment.method] ?? payment.method}</td>
                  <td data-label="Amount" className="num">
                    {money(payment.amountCents, bill.currency)}
                  </td>
                  <td data-label="Credited back" className="num">
                    {payment.overpaidCents === '0' ? '—' : money(payment.overpaidCents, bill.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Confirm
        open={preview !== null}
        title="Pay this bill from your balance?"
        body={
          preview
            ? `${money(preview.amountCents, bill.currency)} leaves your Paysplit balance (${money(available, bill.currency)} available) for bill ${bill.id}; ${money(
                (BigInt(owed) - BigInt(preview.amountCents)).toString(),
                bill.currency,
              )} will still be owed.`
            : ''
        }
        confirmLabel="Pay now"
        danger={false}
        busy={pay.busy}
        error={pay.error}
        onConfirm={() => {
          if (preview) void pay.run(preview);
        }}
        onCancel={() => setPreview(null)}
      />
    </section>
  );
}
