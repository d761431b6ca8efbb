import { useEffect, useState } from 'react';
import { decimalToMinor, minorToDecimal } from '../../../../../platform/money/format-amount';
import { api, data } from '../../api/client';
import type { Order, Refund } from '../../api/types';
import { Confirm, Field, ListState, StatusBadge } from '../../components/ui';
import { ItemList } from '../../components/data-list';
import { humanize, money, Time } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

/** What is still refundable: the amount less refunds that succeeded or are pending. */
function refundableOf(order: Order, refunds: Refund[]): bigint {
  const taken = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + BigInt(r.amountMinorUnits), 0n);
  return BigInt(order.amountMinorUnits) - taken;
}

/**
 * One order's refunds and, while something is refundable, a refund of it (issue 26): the amount (all that is
 * left by default) and a reason; the dialog says exactly what will go back to the buyer before the one
 * confirm, which is sent with an idempotency key so a double click refunds once.
 */
export function RefundDialog({ order, onClose, onRefunded }: { order: Order | null; onClose: () => void; onRefunded: () => void }) {
  const orderId = order?.id ?? '';
  const [version, setVersion] = useState(0);
  const refunds = useResource(
    () => (orderId ? data<Refund[]>(api.GET('/api/commerce/integration/checkout/orders/{orderId}/refunds', { params: { path: { orderId } } })) : Promise.resolve([])),
    [orderId, version],
  );
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState<Refund | null>(null);
  const refundable = order && refunds.data ? refundableOf(order, refunds.data) : null;

  useEffect(() => {
    setAmount(order && refundable !== null && refundable > 0n ? minorToDecimal(refundable.toString(), order.currency) : '');
    // A new dialog (or a new order) is a new refund: a fresh key; the same open dialog keeps its key so a retry is the same refund.
  }, [orderId, refundable === null ? null : refundable.toString()]);
  useEffect(() => {
    setReason('');
    setError(null);
    setDone(null);
    setKey(crypto.randomUUID());
  }, [orderId]);

  if (!order) return <Confirm open={false} title="" confirmLabel="" onConfirm={() => undefined} onCancel={onClose} />;
  const minor = decimalToMinor(amount, order.currency);
  const amountError =
    amount.trim() === ''
      ? undefined
      : minor === null || minor === '0'
        ? `Enter an amount in ${order.currency}, e.g. ${minorToDecimal('500', order.currency)}`
        : refundable !== null && BigInt(minor) > refundable
          ? `At most ${money(refundable.toString(), order.currency)} is left to refund`
          : undefined;
  const valid = minor !== null && minor !== '0' && amountError === undefined && refundable !== null && refundable > 0n;
  const paidWith = order.card ? `${humanize(order.card.brand)} ···· ${order.card.last4}` : humanize(order.provider);

  const submit = async () => {
    if (!valid || !minor) return;
    setBusy(true);
    setError(null);
    try {
      const refund = await data<Refund>(
        api.POST('/api/commerce/integration/checkout/orders/{orderId}/refunds', {
          params: { path: { orderId: order.id } },
          body: { amountMinorUnits: minor, idempotencyKey: key, ...(reason.trim() ? { reason: reason.trim() } : {}) },
        }),
      );
      setDone(refund);
      setKey(crypto.randomUUID());
      setVersion((v) => v + 1);
      onRefunded();
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Confirm
      open
      title={`Refunds of ${money(order.amountMinorUnits, order.currency)}`}
      confirmLabel={valid && minor ? `Refund ${money(minor, order.currency)}` : 'Refund'}
      danger
      busy={busy}
      error={error}
      onConfirm={() => void submit()}
      onCancel={onClose}
    >
      <p className="small muted">
        Order <code>{order.id}</code>, paid with {paidWith}.
      </p>
      <h3 className="small" style={{ margin: '0.75rem 0 0.25rem' }}>
        Refunds so far
      </h3>
      <ListState resource={refunds} empty={<p className="small muted">No refunds yet.</p>}>
        {(items) => (
          <ItemList items={items} itemKey={(r) => r.refundId} itemProps={(r) => ({ 'data-refund': r.refundId })}>
            {(r) => (
              <div className="row" style={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: '0.5rem' }}>
                <span>
                  <strong>{money(r.amountMinorUnits, r.currency)}</strong> <StatusBadge status={r.status} />
                  {r.reason ? <span className="small muted"> · {r.reason}</span> : null}
                  {r.failureReason ? <span className="small muted"> · {r.failureReason}</span> : null}
                </span>
                <span className="small muted">
                  <Time iso={r.createdAt} />
                </span>
              </div>
            )}
          </ItemList>
        )}
      </ListState>
      {done ? (
        <div className={`alert ${done.status === 'failed' ? 'error' : 'success'}`} role="status">
          {done.status === 'succeeded'
            ? `${money(done.amountMinorUnits, done.currency)} went back to the buyer.`
            : done.status === 'failed'
              ? `The processor refused the refund: ${done.failureReason ?? 'no reason given'}. Nothing moved.`
              : 'The refund is pending at the processor.'}
        </div>
      ) : null}
      {refundable !== null && refundable > 0n ? (
        <>
          <div style={{ marginTop: '1rem' }} />
          <Field label={`Amount to refund (${order.currency})`} error={amountError} hint={`Up to ${money(refundable.toString(), order.currency)}.`}>
            {(props) => <input {...props} type="text" inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value)} />}
          </Field>
          <Field label="Reason (optional)">{(props) => <input {...props} type="text" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}</Field>
          <p className="refund-preview" aria-live="polite">
            {valid && minor
              ? `${money(minor, order.currency)} goes back to the buyer's ${paidWith}, out of your checkout balance. A refund cannot be undone and never cancels a subscription.`
              : 'Enter the amount to see what goes back to the buyer.'}
          </p>
        </>
      ) : refundable !== null ? (
        <p className="small muted">Everything this order captured has been refunded.</p>
      ) : null}
    </Confirm>
  );
}
