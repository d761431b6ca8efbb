import { given } from '../../../test/support/given-when-then';
import { MerchantBalanceCommand, merchantBalanceDecider, payoutAfterNetting } from './merchant-balance.decider';
import { MerchantBalanceEvent } from './merchant-balance.events';

const now = '2026-01-01T00:00:00.000Z';
const debit = (refundId: string, amountMinorUnits: string, currency = 'USD'): MerchantBalanceCommand => ({
  type: 'DebitRefund',
  data: { companyId: 'co_m', orderId: 'ord_a', refundId, currency, amountMinorUnits },
  metadata: { now, actor: 'system' },
});
const debited = (refundId: string, amountMinorUnits: string, currency = 'USD'): MerchantBalanceEvent => ({
  type: 'checkout.merchant_balance.refund_debited',
  data: { companyId: 'co_m', orderId: 'ord_a', refundId, currency, amountMinorUnits, at: now },
});
const net = (orderId: string, amountMinorUnits: string, currency = 'USD'): MerchantBalanceCommand => ({
  type: 'NetDebt',
  data: { companyId: 'co_m', orderId, payoutId: `po_${orderId}`, currency, amountMinorUnits },
  metadata: { now, actor: 'system' },
});
const netted = (orderId: string, amountMinorUnits: string, currency = 'USD'): MerchantBalanceEvent => ({
  type: 'checkout.merchant_balance.debt_netted',
  data: { companyId: 'co_m', orderId, payoutId: `po_${orderId}`, currency, amountMinorUnits, at: now },
});

describe('Merchant checkout balance decider (issue 26: refunds after payout are netted by later orders)', () => {
  it('debits a succeeded refund once', () => {
    given(merchantBalanceDecider)
      .when(debit('rf_1', '700'))
      .then([debited('rf_1', '700')]);
    given(merchantBalanceDecider, debited('rf_1', '700')).when(debit('rf_1', '700')).thenNothing();
  });

  it('nets what is owed from the next order, up to its amount, then nothing once the debt is paid', () => {
    given(merchantBalanceDecider, debited('rf_1', '700'))
      .when(net('ord_b', '500'))
      .then([netted('ord_b', '500')]);
    given(merchantBalanceDecider, debited('rf_1', '700'), netted('ord_b', '500'))
      .when(net('ord_c', '300'))
      .then([netted('ord_c', '200')]);
    given(merchantBalanceDecider, debited('rf_1', '700'), netted('ord_b', '500'), netted('ord_c', '200')).when(net('ord_d', '400')).thenNothing();
  });

  it('nets an order once: a repeat decides nothing and its payout stays what it was', () => {
    const history = [debited('rf_1', '700'), netted('ord_b', '500')];
    given(merchantBalanceDecider, ...history)
      .when(net('ord_b', '500'))
      .thenNothing();
    const state = history.reduce(merchantBalanceDecider.evolve, merchantBalanceDecider.initialState());
    expect(payoutAfterNetting(state, 'ord_b', '500')).toBe(0n);
    expect(payoutAfterNetting(state, 'ord_x', '500')).toBe(500n);
  });

  it('keeps debts per currency: a EUR order never nets a USD refund', () => {
    given(merchantBalanceDecider, debited('rf_1', '700', 'USD'))
      .when(net('ord_b', '500', 'EUR'))
      .thenNothing();
  });

  describe('a merchant payout that failed (issue 26)', () => {
    const credit = (orderId: string, amountMinorUnits: string): MerchantBalanceCommand => ({
      type: 'CreditFailedPayout',
      data: { companyId: 'co_m', orderId, payoutId: `po_${orderId}`, currency: 'USD', amountMinorUnits },
      metadata: { now, actor: 'system' },
    });
    const failed = (orderId: string, amountMinorUnits: string): MerchantBalanceEvent => ({
      type: 'checkout.merchant_balance.payout_failed',
      data: { companyId: 'co_m', orderId, payoutId: `po_${orderId}`, currency: 'USD', amountMinorUnits, at: now },
    });

    it('is credited back once per payout', () => {
      given(merchantBalanceDecider)
        .when(credit('ord_a', '10000'))
        .then([failed('ord_a', '10000')]);
      given(merchantBalanceDecider, failed('ord_a', '10000')).when(credit('ord_a', '10000')).thenNothing();
      given(merchantBalanceDecider).when(credit('ord_a', '0')).thenNothing();
    });

    it('covers later refunds first: the next order nets only what they took beyond it', () => {
      given(merchantBalanceDecider, failed('ord_a', '10000'), debited('rf_1', '2500')).when(net('ord_c', '4000')).thenNothing();
      given(merchantBalanceDecider, failed('ord_a', '1000'), debited('rf_1', '2500'))
        .when(net('ord_c', '4000'))
        .then([netted('ord_c', '1500')]);
    });
  });
});
