import { assertNever, Decider } from '../../platform/domain/decider';
import { MerchantBalanceEvent } from './merchant-balance.events';
import { CommandMetadata } from '../../platform/domain/command';

export type MerchantBalanceCommand =
  | { type: 'DebitRefund'; data: { companyId: string; orderId: string; refundId: string; currency: string; amountMinorUnits: string }; metadata: CommandMetadata }
  | { type: 'NetDebt'; data: { companyId: string; orderId: string; payoutId: string; currency: string; amountMinorUnits: string }; metadata: CommandMetadata }
  | { type: 'CreditFailedPayout'; data: { companyId: string; orderId: string; payoutId: string; currency: string; amountMinorUnits: string }; metadata: CommandMetadata };

export interface MerchantBalanceState {
  /**
   * Per currency: what succeeded refunds took beyond the money still held (owed back by the next payouts);
   * below zero while failed payouts left money held for the merchant (refunds draw on it first).
   */
  debt: Readonly<Record<string, bigint>>;
  /** Refunds debited already (once each). */
  refunds: ReadonlySet<string>;
  /** Per order that netted debt: how much of its money did (its payout is that much smaller). */
  netted: Readonly<Record<string, bigint>>;
  /** Merchant payouts whose failure was credited back (once each); absent on states folded before issue 26's failures. */
  failedPayouts?: ReadonlySet<string>;
}

/**
 * The merchant's checkout debt per currency (docs/money.md#checkout-money). A succeeded refund is debited
 * once; a failed merchant payout is credited back once; a PAID order nets what is owed, up to its own amount, once. Decided on this one stream per merchant,
 * so two orders paid at once cannot both net the same debt.
 */
export const merchantBalanceDecider: Decider<MerchantBalanceCommand, MerchantBalanceEvent, MerchantBalanceState> = {
  initialState: () => ({ debt: {}, refunds: new Set(), netted: {} }),
  decide(command, state) {
    switch (command.type) {
      case 'DebitRefund': {
        const { companyId, orderId, refundId, currency, amountMinorUnits } = command.data;
        const { now } = command.metadata;
        if (state.refunds.has(refundId)) return [];
        return [{ type: 'checkout.merchant_balance.refund_debited', data: { companyId, orderId, refundId, currency, amountMinorUnits, at: now } }];
      }
      case 'NetDebt':
        return netDebt(command.data, state, command.metadata);
      case 'CreditFailedPayout': {
        const { companyId, orderId, payoutId, currency, amountMinorUnits } = command.data;
        const { now } = command.metadata;
        if (state.failedPayouts?.has(payoutId) || BigInt(amountMinorUnits) <= 0n) return [];
        return [{ type: 'checkout.merchant_balance.payout_failed', data: { companyId, orderId, payoutId, currency, amountMinorUnits, at: now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    const d = event.data;
    const debt = (delta: bigint) => ({ ...state.debt, [d.currency]: (state.debt[d.currency] ?? 0n) + delta });
    switch (event.type) {
      case 'checkout.merchant_balance.refund_debited':
        return { ...state, debt: debt(BigInt(d.amountMinorUnits)), refunds: new Set(state.refunds).add(event.data.refundId) };
      case 'checkout.merchant_balance.debt_netted':
        return { ...state, debt: debt(-BigInt(d.amountMinorUnits)), netted: { ...state.netted, [d.orderId]: BigInt(d.amountMinorUnits) } };
      case 'checkout.merchant_balance.payout_failed':
        return { ...state, debt: debt(-BigInt(d.amountMinorUnits)), failedPayouts: new Set(state.failedPayouts).add(event.data.payoutId) };
      default:
        return assertNever(event);
    }
  },
};

/** A PAID order's money covers the debt first, up to the order's amount; once per order. */
function netDebt(data: Extract<MerchantBalanceCommand, { type: 'NetDebt' }>['data'], state: MerchantBalanceState, meta: CommandMetadata): MerchantBalanceEvent[] {
  if (state.netted[data.orderId] !== undefined) return [];
  const owed = state.debt[data.currency] ?? 0n;
  const amount = BigInt(data.amountMinorUnits);
  const netted = owed < amount ? owed : amount;
  if (netted <= 0n) return [];
  const { companyId, orderId, payoutId, currency } = data;
  const { now } = meta;
  return [{ type: 'checkout.merchant_balance.debt_netted', data: { companyId, orderId, payoutId, currency, amountMinorUnits: netted.toString(), at: now } }];
}

/** What the order's payout is: its amount less what it netted. */
export function payoutAfterNetting(state: MerchantBalanceState, orderId: string, amountMinorUnits: string): bigint {
  return BigInt(amountMinorUnits) - (state.netted[orderId] ?? 0n);
}
