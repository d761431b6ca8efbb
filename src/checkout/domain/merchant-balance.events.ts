import { DomainEvent } from '../../platform/domain/decider';

/**
 * A merchant's checkout balance (issue 26, docs/money.md#checkout-money): one stream per merchant company,
 * kept only for what a refund leaves owing. Each PAID order is paid out at once; a refund that succeeds after
 * its money was paid out debits the balance below zero, and the next PAID orders' payouts net that debt first.
 */
export type MerchantRefundDebited = DomainEvent<
  'checkout.merchant_balance.refund_debited',
  { companyId: string; orderId: string; refundId: string; currency: string; amountMinorUnits: string; at: string }
>;
/** Part (or all) of a PAID order's money covered the debt: its payout is that much smaller. */
export type MerchantDebtNetted = DomainEvent<
  'checkout.merchant_balance.debt_netted',
  { companyId: string; orderId: string; payoutId: string; currency: string; amountMinorUnits: string; at: string }
>;

/**
 * A PAID order's merchant payout failed on the rail (issue 26): its money is back in the merchant's checkout
 * balance (the ledger's checkout_payout_failed), so it covers what later refunds take before they leave a debt,
 * and the next orders net only what is really owed.
 */
export type MerchantPayoutFailed = DomainEvent<
  'checkout.merchant_balance.payout_failed',
  { companyId: string; orderId: string; payoutId: string; currency: string; amountMinorUnits: string; at: string }
>;

export type MerchantBalanceEvent = MerchantRefundDebited | MerchantDebtNetted | MerchantPayoutFailed;

export const MERCHANT_BALANCE_EVENT_TYPES: ReadonlySet<string> = new Set<MerchantBalanceEvent['type']>([
  'checkout.merchant_balance.refund_debited',
  'checkout.merchant_balance.debt_netted',
  'checkout.merchant_balance.payout_failed',
]);

export const MERCHANT_BALANCE_STREAM_PREFIX = 'checkout_merchant_balance-';
export const merchantBalanceStreamId = (companyId: string) => `${MERCHANT_BALANCE_STREAM_PREFIX}${companyId}`;
