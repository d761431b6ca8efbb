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
