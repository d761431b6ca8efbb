import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { parseCents } from '../../platform/money/money';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { ORDER_STREAM_PREFIX, type OrderEvent } from '../../checkout';
import { PAYOUT_STREAM_PREFIX, PayoutEvent } from '../../payouts';
import { COLLECTIONS_MERCHANT } from '../../collection';
import { accounts, CheckoutPosting, credit, debit, Entry, nonZero, PostingKind } from '../domain/posting';

export const LEDGER_CHECKOUT_POSTINGS = 'ledger_checkout_postings';
export const LEDGER_CHECKOUT_ORDERS = 'ledger_checkout_orders';
/** Per (merchant company, currency): its checkout accounts, for GET /api/commerce/balance. */
export const LEDGER_CHECKOUT_BALANCES = 'ledger_checkout_balances';

/** What the checkout ledger remembers about an order between its events. */
export interface LedgerCheckoutOrder {
  id: string;
  companyId: string;
  currency: string;
  sequence: number;
  /** The order's merchant payouts and what each carried (a payout's answer events carry no amount). */
  payouts: Record<string, string>;
  /**
   * An order paying an enterprise's invoice by card (issue 27): its money is booked by the collection
   * posting (platform_cash to the receivable), so nothing of it is booked here, or the buyer's money
   * would be on the books twice.
   */
  invoicePayment?: true;
}

/** A merchant's checkout accounts in one currency, credit-positive (what we owe it / paid it). */
export interface CheckoutBalanceDoc {
  id: string;
  companyId: string;
  currency: string;
  /** merchant_balance:<co>: negative while refunds of money already paid out are owed back. */
  balanceCents: string;
  /** merchant_payout_in_transit:<co>. */
  inTransitCents: string;
  /** merchant_paid_out:<co>. */
  paidOutCents: string;
  /** processor_clearing:<co> turned around: what buyers paid less what refunds gave back. */
  capturedNetCents: string;
}

export const checkoutBalanceDocId = (companyId: string, currency: string) => `${companyId}:${currency}`;

const ORDER_EVENTS = new Set(['checkout.order.paid', 'checkout.order.refund_succeeded']);
const PAYOUT_EVENTS = new Set(['payout.requested', 'payout.completed', 'payout.failed']);

/**
 * Checkout money in the ledger (issue 26, docs/money.md#checkout-money): for every PAID order (a buyer's or
 * a renewal) the capture, its merchant payout (requested, then paid or failed) and every refund that
 * succeeded. Derived from the order and payout events alone, so a data dir written before issue 26 books
 * its orders too (this projection starts from the beginning of the log). Posting ids from the order and
 * a sequence, so a rebuild makes the very same documents.
 */
@Injectable()
@LogSubscriber()
export class CheckoutLedgerProjection implements Projection {
  readonly name = 'ledger_checkout';
  readonly streams = [ORDER_STREAM_PREFIX, PAYOUT_STREAM_PREFIX];
  readonly collections = [
    { name: LEDGER_CHECKOUT_POSTINGS, indexes: [['orderId', 'sequence'], ['companyId']] },
    { name: LEDGER_CHECKOUT_ORDERS },
    { name: LEDGER_CHECKOUT_BALANCES, indexes: [['companyId']] },
  ];

  handles(event: RecordedEvent): boolean {
    if (ORDER_EVENTS.has(event.type)) return true;
    return PAYOUT_EVENTS.has(event.type) && (event.data as { kind?: string }).kind === 'merchant';
  }

  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as OrderEvent | PayoutEvent;
    if (event.type === 'checkout.order.paid') {
      const d = event.data;
      // An order is paid once; were it recorded twice, its second capture is posted too (numbered on), for ledger:verify to find.
      if (d.merchantCompanyId === COLLECTIONS_MERCHANT) {
        writer.put<LedgerCheckoutOrder>(LEDGER_CHECKOUT_ORDERS, {
          id: d.orderId,
          companyId: d.merchantCompanyId,
          currency: d.currency,
          sequence: 0,
          payouts: {},
          invoicePayment: true,
        });
        return;
      }
      const known = await writer.edit<LedgerCheckoutOrder>(LEDGER_CHECKOUT_ORDERS, d.orderId);
      const order: LedgerCheckoutOrder = known ?? { id: d.orderId, companyId: d.merchantCompanyId, currency: d.currency, sequence: 0, payouts: {} };
      const amount = parseCents(d.amountMinorUnits);
      const co = d.merchantCompanyId;
      await this.post(writer, order, recorded, 'checkout_capture', `Order ${d.orderId} paid: the processor holds what the buyer paid, owed to the merchant`, [
        debit(accounts.processorClearing(co), amount),
        credit(accounts.merchantBalance(co), amount),
      ]);
      // Put once its first posting numbered it (a put document is not a working copy to change after).
      if (!known) writer.put<LedgerCheckoutOrder>(LEDGER_CHECKOUT_ORDERS, order);
      return;
    }
    const orderId = 'orderId' in event.data ? event.data.orderId : null;
    if (!orderId) return;
    const order = await writer.edit<LedgerCheckoutOrder>(LEDGER_CHECKOUT_ORDERS, orderId);
    if (!order) throw new Error(`${event.type} for order ${orderId}, which the checkout ledger never saw paid (event ${recorded.id})`);
    if (order.invoicePayment) return;
    const co = order.companyId;
    switch (event.type) {
      case 'checkout.order.refund_succeeded': {
        const amount = parseCents(event.data.amountMinorUnits);
        return this.post(writer, order, recorded, 'checkout_refund', `Refund ${event.data.refundId} of order ${orderId}: back to the buyer out of the merchant's balance`, [
          debit(accounts.merchantBalance(co), amount),
          credit(accounts.processorClearing(co), amount),
        ]);
      }
      case 'payout.requested': {
        if (event.data.kind !== 'merchant') return;
        order.payouts[event.data.payoutId] = event.data.amountCents;
        const amount = parseCents(event.data.amountCents);
        return this.post(writer, order, recorded, 'checkout_payout', `Payout ${event.data.payoutId} of order ${orderId} requested (less what it netted)`, [
          debit(accounts.merchantBalance(co), amount),
          credit(accounts.merchantPayoutInTransit(co), amount),
        ]);
      }
      case 'payout.completed':
      case 'payout.failed': {
        if (event.data.kind !== 'merchant') return;
        const amount = parseCents(order.payouts[event.data.payoutId] ?? '0');
        const [kind, memo, to]: [PostingKind, string, string] =
          event.type === 'payout.completed'
            ? ['checkout_payout_paid', `Payout ${event.data.payoutId} of order ${orderId} paid to the merchant`, accounts.merchantPaidOut(co)]
            : ['checkout_payout_failed', `Payout ${event.data.payoutId} of order ${orderId} failed: back to the merchant's balance`, accounts.merchantBalance(co)];
        return this.post(writer, order, recorded, kind, memo, [debit(accounts.merchantPayoutInTransit(co), amount), credit(to, amount)]);
      }
      default:
        return;
    }
  }

  /** One posting of the order (none when nothing moved: a payout that netted the whole order), and the merchant's balance document. */
  private async post(writer: ProjectionWriter, order: LedgerCheckoutOrder, recorded: RecordedEvent, kind: PostingKind, memo: string, lines: Entry[]): Promise<void> {
    const entries = nonZero(lines);
    if (entries.length === 0) return;
    order.sequence += 1;
    const posting: CheckoutPosting = {
      id: `${order.id}:${String(order.sequence).padStart(4, '0')}`,
      orderId: order.id,
      companyId: order.companyId,
      sequence: order.sequence,
      position: recorded.position,
      currency: order.currency,
      kind,
      memo,
      postedAt: recorded.metadata.occurredAt,
      eventId: recorded.id,
      entries,
    };
    writer.put<CheckoutPosting>(LEDGER_CHECKOUT_POSTINGS, posting);
    const id = checkoutBalanceDocId(order.companyId, order.currency);
    const stored = await writer.edit<CheckoutBalanceDoc>(LEDGER_CHECKOUT_BALANCES, id);
    const doc = stored ?? { id, companyId: order.companyId, currency: order.currency, balanceCents: '0', inTransitCents: '0', paidOutCents: '0', capturedNetCents: '0' };
    for (const entry of entries) {
      const delta = BigInt(entry.credit) - BigInt(entry.debit);
      const field = entry.account.startsWith('merchant_balance:')
        ? 'balanceCents'
        : entry.account.startsWith('merchant_payout_in_transit:')
          ? 'inTransitCents'
          : entry.account.startsWith('merchant_paid_out:')
            ? 'paidOutCents'
            : 'capturedNetCents';
      doc[field] = (BigInt(doc[field]) + (field === 'capturedNetCents' ? -delta : delta)).toString();
    }
    if (!stored) writer.put<CheckoutBalanceDoc>(LEDGER_CHECKOUT_BALANCES, doc);
  }
}
