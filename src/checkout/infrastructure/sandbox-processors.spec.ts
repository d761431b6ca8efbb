import { InMemoryChargeBook, luhnValid, SANDBOX_CARDS, SandboxCardProcessor, SandboxWalletProcessor } from './sandbox-processors';

let attempts = 0;
const request = () => ({ attemptId: `pay_${++attempts}`, orderId: 'ord_1', amountMinorUnits: '100', currency: 'USD', now: '2026-01-01T00:00:00.000Z' });
const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: '123' });

describe('Sandbox card processor', () => {
  const processor = new SandboxCardProcessor(new InMemoryChargeBook());

  it('answers each sandbox card as documented and never puts the number in its outcome', async () => {
    const ok = await processor.chargeCard(request(), card(SANDBOX_CARDS.SUCCEEDS));
    expect(ok).toMatchObject({ kind: 'succeeded', card: { brand: 'visa', last4: '4242' } });
    expect(await processor.chargeCard(request(), card(SANDBOX_CARDS.DECLINES))).toMatchObject({ kind: 'declined', declineCode: 'card_declined' });
    expect(await processor.chargeCard(request(), card(SANDBOX_CARDS.NEEDS_AUTHENTICATION))).toMatchObject({ kind: 'requires_action' });
    const offSession = await processor.chargeCard(request(), card(SANDBOX_CARDS.DECLINES_OFF_SESSION));
    expect(offSession.kind).toBe('succeeded');
    for (const outcome of [ok, offSession]) expect(JSON.stringify(outcome)).not.toMatch(/4242424242424242|4000000000000341/);
    if (offSession.kind !== 'succeeded' || !offSession.card || ok.kind !== 'succeeded' || !ok.card) throw new Error('unexpected');
    expect(await processor.chargeSavedCard(request(), offSession.card)).toMatchObject({ kind: 'declined' });
    expect(await processor.chargeSavedCard(request(), ok.card)).toMatchObject({ kind: 'succeeded' });
  });

  it('declines expired cards and invalid numbers', async () => {
    expect(await processor.chargeCard({ ...request() }, { ...card(SANDBOX_CARDS.SUCCEEDS), expYear: 2025 })).toMatchObject({ kind: 'declined', declineCode: 'expired_card' });
    expect(await processor.chargeCard(request(), card('4242424242424241'))).toMatchObject({ kind: 'declined', declineCode: 'incorrect_number' });
    expect(luhnValid(SANDBOX_CARDS.NEEDS_AUTHENTICATION)).toBe(true);
  });
});

describe('Sandbox processors behave like a real one: idempotency key, lookup and void by key', () => {
  it('charges once per key: a repeat, even concurrent or with another card, gets the first outcome and takes nothing more', async () => {
    const book = new InMemoryChargeBook();
    const processor = new SandboxCardProcessor(book, { delayMs: 20 });
    const same = request();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => processor.chargeCard(same, card(SANDBOX_CARDS.SUCCEEDS))));
    expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBe(1);
    expect(await processor.chargeCard(same, card(SANDBOX_CARDS.DECLINES))).toEqual(outcomes[0]);
    expect(await book.all()).toEqual([expect.objectContaining({ attemptId: same.attemptId, status: 'captured' })]);
  });

  it('looks a charge up by its key (null when no call reached it), and voids a captured one once', async () => {
    const processor = new SandboxWalletProcessor(new InMemoryChargeBook());
    const paid = request();
    expect(await processor.retrieveCharge(paid.attemptId)).toBeNull();
    await processor.approveWallet(paid);
    expect(await processor.retrieveCharge(paid.attemptId)).toMatchObject({ status: 'captured', orderId: 'ord_1', amountMinorUnits: '100', voidedAt: null });
    await processor.voidCharge(paid.attemptId, '2026-01-02T00:00:00.000Z');
    await processor.voidCharge(paid.attemptId, '2026-01-03T00:00:00.000Z');
    expect(await processor.retrieveCharge(paid.attemptId)).toMatchObject({ status: 'voided', voidedAt: '2026-01-02T00:00:00.000Z' });
    await expect(processor.voidCharge('pay_unknown', '2026-01-02T00:00:00.000Z')).rejects.toThrow(/No captured charge/);
  });

  it('the test-only fault keeps the charge and loses the answer, once', async () => {
    const processor = new SandboxCardProcessor(new InMemoryChargeBook());
    processor.faults.loseNextAnswer = true;
    const lost = request();
    await expect(processor.chargeCard(lost, card(SANDBOX_CARDS.SUCCEEDS))).rejects.toThrow(/answer was lost/);
    expect(await processor.retrieveCharge(lost.attemptId)).toMatchObject({ status: 'captured' });
    expect(await processor.chargeCard(lost, card(SANDBOX_CARDS.SUCCEEDS))).toMatchObject({ kind: 'succeeded' });
  });
});

describe('Sandbox refunds (issue 26): the same key, the same answer; a documented card whose refunds fail', () => {
  const book = new InMemoryChargeBook();
  const processor = new SandboxCardProcessor(book);
  const refundOf = (refundId: string, chargeAttemptId: string, cardToken: { brand: string; last4: string; token: string } | null) => ({
    refundId,
    orderId: 'ord_1',
    chargeAttemptId,
    card: cardToken,
    amountMinorUnits: '100',
    currency: 'USD',
    now: '2026-01-01T00:00:00.000Z',
  });

  it('refunds a captured charge, answers a repeat under the same refund id from its record, and keeps it retrievable by key', async () => {
    const charge = request();
    const paid = await processor.chargeCard(charge, card(SANDBOX_CARDS.SUCCEEDS));
    if (paid.kind !== 'succeeded') throw new Error('unexpected');
    expect(await processor.retrieveRefund('rf_a')).toBeNull();
    expect(await processor.refund(refundOf('rf_a', charge.attemptId, paid.card))).toEqual({ kind: 'succeeded' });
    expect(await processor.refund({ ...refundOf('rf_a', charge.attemptId, paid.card), amountMinorUnits: '999' })).toEqual({ kind: 'succeeded' });
    expect(await processor.retrieveRefund('rf_a')).toMatchObject({ refundId: 'rf_a', amountMinorUnits: '100', outcome: { kind: 'succeeded' } });
  });

  it(`fails every refund of a charge paid with ${SANDBOX_CARDS.REFUNDS_FAIL} (it pays normally), and of a voided charge`, async () => {
    expect(luhnValid(SANDBOX_CARDS.REFUNDS_FAIL)).toBe(true);
    const charge = request();
    const paid = await processor.chargeCard(charge, card(SANDBOX_CARDS.REFUNDS_FAIL));
    if (paid.kind !== 'succeeded') throw new Error('unexpected');
    expect(JSON.stringify(paid)).not.toContain(SANDBOX_CARDS.REFUNDS_FAIL);
    expect(await processor.refund(refundOf('rf_b', charge.attemptId, paid.card))).toMatchObject({ kind: 'failed', failureCode: 'refund_declined' });
    expect(await processor.chargeSavedCard(request(), paid.card!)).toMatchObject({ kind: 'succeeded' });

    const voided = request();
    const ok = await processor.chargeCard(voided, card(SANDBOX_CARDS.SUCCEEDS));
    await processor.voidCharge(voided.attemptId, voided.now);
    expect(await processor.refund(refundOf('rf_c', voided.attemptId, ok.kind === 'succeeded' ? ok.card : null))).toMatchObject({
      kind: 'failed',
      failureCode: 'charge_not_captured',
    });
  });

  it('refunds wallet payments', async () => {
    const wallet = new SandboxWalletProcessor(new InMemoryChargeBook());
    const charge = request();
    await wallet.approveWallet(charge);
    expect(await wallet.refund(refundOf('rf_w', charge.attemptId, null))).toEqual({ kind: 'succeeded' });
  });
});
