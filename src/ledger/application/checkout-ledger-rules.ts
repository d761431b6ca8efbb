import { CheckoutPosting, isCheckoutPosting, Posting } from '../domain/posting';
import type { LedgerViolation } from './ledger-verifier';

/** One order's checkout money as its postings moved it (minor units). */
interface OrderMoney {
  companyId: string;
  currency: string;
  captures: number;
  captured: bigint;
  refunded: bigint;
  /** What its payouts carried (requested), and what of that reached the merchant or is still on its way. */
  paidOut: bigint;
  inTransit: bigint;
  /** Its share of merchant_balance (credit - debit): what is still held for the merchant, negative while a refund is owed. */
  held: bigint;
  requested: bigint;
}

const side = (p: CheckoutPosting, prefix: string, which: 'debit' | 'credit') => p.entries.filter((e) => e.account.startsWith(prefix)).reduce((s, e) => s + BigInt(e[which]), 0n);
const net = (p: CheckoutPosting, prefix: string) => side(p, prefix, 'credit') - side(p, prefix, 'debit');

/**
 * ledger:verify's checkout rules (issue 26, docs/money.md#checkout-money), per order: captured once; refunds
 * never more than captured; payouts never more than captured; and captured = refunded + paid out + in transit
 * + still held, each read from its own account. Per merchant and currency: what payouts held back (netted)
 * never exceeds what refunds took back.
 */
export function checkCheckoutOrders(ordered: Posting[]): { orders: number; refunds: number; violations: LedgerViolation[] } {
  const violations: LedgerViolation[] = [];
  const orders = new Map<string, OrderMoney>();
  let refunds = 0;
  for (const p of ordered) {
    if (!isCheckoutPosting(p)) continue;
    const o = orders.get(p.orderId) ?? {
      companyId: p.companyId,
      currency: p.currency,
      captures: 0,
      captured: 0n,
      refunded: 0n,
      paidOut: 0n,
      inTransit: 0n,
      held: 0n,
      requested: 0n,
    };
    orders.set(p.orderId, o);
    if (p.kind === 'checkout_capture') {
      o.captures += 1;
      o.captured += side(p, 'processor_clearing:', 'debit');
    }
    if (p.kind === 'checkout_refund') {
      refunds += 1;
      o.refunded += side(p, 'processor_clearing:', 'credit');
    }
    if (p.kind === 'checkout_payout') o.requested += side(p, 'merchant_payout_in_transit:', 'credit');
    o.paidOut += net(p, 'merchant_paid_out:');
    o.inTransit += net(p, 'merchant_payout_in_transit:');
    o.held += net(p, 'merchant_balance:');
    if (o.refunded > o.captured) violations.push({ rule: 'checkout_order', message: `${p.orderId}: refunded ${o.refunded} of a ${o.captured} capture at posting ${p.id}` });
  }
  const netting = new Map<string, { netted: bigint; refunded: bigint }>();
  for (const [orderId, o] of orders) {
    if (o.captures !== 1) violations.push({ rule: 'checkout_order', message: `${orderId}: captured ${o.captures} times` });
    if (o.paidOut + o.inTransit > o.captured)
      violations.push({ rule: 'checkout_order', message: `${orderId}: paid out ${o.paidOut} and ${o.inTransit} in transit of a ${o.captured} capture` });
    const accounted = o.refunded + o.paidOut + o.inTransit + o.held;
    if (accounted !== o.captured)
      violations.push({
        rule: 'checkout_order',
        message: `${orderId}: captured ${o.captured}, but refunded ${o.refunded} + paid out ${o.paidOut} + in transit ${o.inTransit} + held ${o.held} = ${accounted}`,
      });
    const key = `${o.companyId}:${o.currency}`;
    const merchant = netting.get(key) ?? { netted: 0n, refunded: 0n };
    // What the order's payout held back; an order whose payout is not requested yet (or netted all of it: no posting) counts nothing.
    if (o.requested > 0n) merchant.netted += o.captured - o.requested;
    merchant.refunded += o.refunded;
    netting.set(key, merchant);
  }
  for (const [key, { netted, refunded }] of netting) {
    if (netted > refunded) violations.push({ rule: 'checkout_netting', message: `${key}: payouts held back ${netted}, more than the ${refunded} refunds took back` });
  }
  return { orders: orders.size, refunds, violations };
}
