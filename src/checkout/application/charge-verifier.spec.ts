import { ChargeRecord } from '../domain/payment-processor.port';
import { OrderCharges, verifyCheckoutCharges } from './charge-verifier';

const order = (overrides: Partial<OrderCharges> = {}): OrderCharges => ({ orderId: 'ord_1', started: ['pay_a'], paid: ['pay_a'], voided: [], inFlight: null, ...overrides });
const charge = (attemptId: string, status: ChargeRecord['status'], orderId = 'ord_1'): ChargeRecord => ({
  attemptId,
  orderId,
  amountMinorUnits: '1999',
  currency: 'USD',
  status,
  outcome: { kind: 'succeeded', card: null },
  at: '2026-01-01T00:00:00.000Z',
  voidedAt: status === 'voided' ? '2026-01-01T00:00:01.000Z' : null,
});
const messages = (report: ReturnType<typeof verifyCheckoutCharges>) => report.violations.map((v) => v.message);

describe('ledger:verify, checkout charges: every captured charge is recorded exactly once, as paid or as voided', () => {
  it('holds for a paid order, a voided charge, a declined attempt, an attempt in flight and an order paid before attempts were recorded', () => {
    const report = verifyCheckoutCharges(
      [order(), order({ orderId: 'ord_2', started: ['pay_b', 'pay_c'], paid: [], voided: ['pay_b'], inFlight: 'pay_c' }), order({ orderId: 'ord_3', started: [], paid: [null] })],
      [charge('pay_a', 'captured'), charge('pay_b', 'voided', 'ord_2'), charge('pay_d', 'declined', 'ord_2')],
    );
    expect(report).toEqual({ orders: 3, paid: 1, voided: 1, inFlight: 1, processorCharges: 2, violations: [] });
  });

  it('finds a charge the processor took that no order recorded (charged and never recorded)', () => {
    const report = verifyCheckoutCharges([order({ paid: [], inFlight: 'pay_a' })], [charge('pay_a', 'captured')]);
    expect(messages(report)).toEqual(['ord_1: the processor captured 1999 USD under pay_a, recorded neither paid nor voided']);
  });

  it('finds an order paid twice, a charge recorded both paid and voided, and an outcome for an attempt never started', () => {
    expect(messages(verifyCheckoutCharges([order({ started: ['pay_a', 'pay_b'], paid: ['pay_a', 'pay_b'] })], null))).toEqual(['ord_1: paid 2 times']);
    expect(messages(verifyCheckoutCharges([order({ voided: ['pay_a'] })], null))).toEqual(['ord_1: the charge of attempt pay_a is recorded 2 times (paid, voided)']);
    expect(messages(verifyCheckoutCharges([order({ started: [] })], null))).toEqual(['ord_1: paid attempt pay_a was never started']);
  });

  it('finds records the processor contradicts: a void it never carried out, a payment it voided or never took', () => {
    expect(messages(verifyCheckoutCharges([order({ paid: [], voided: ['pay_a'] })], [charge('pay_a', 'captured')]))).toEqual([
      'ord_1: pay_a is recorded voided but the processor still holds the charge',
    ]);
    expect(messages(verifyCheckoutCharges([order()], [charge('pay_a', 'voided')]))).toEqual(['ord_1: pay_a is recorded paid but the processor voided it']);
    expect(messages(verifyCheckoutCharges([order()], []))).toEqual(['ord_1: attempt pay_a is recorded paid but the processor holds no charge under it']);
  });
});
