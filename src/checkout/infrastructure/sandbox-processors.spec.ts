import { luhnValid, SANDBOX_CARDS, SandboxCardProcessor } from './sandbox-processors';

const request = { orderId: 'ord_1', amountMinorUnits: '100', currency: 'USD', now: '2026-01-01T00:00:00.000Z' };
const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: '123' });

describe('Sandbox card processor', () => {
  const processor = new SandboxCardProcessor();

  it('answers each sandbox card as documented and never puts the number in its outcome', async () => {
    const ok = await processor.chargeCard(request, card(SANDBOX_CARDS.SUCCEEDS));
    expect(ok).toMatchObject({ kind: 'succeeded', card: { brand: 'visa', last4: '4242' } });
    expect(await processor.chargeCard(request, card(SANDBOX_CARDS.DECLINES))).toMatchObject({ kind: 'declined', declineCode: 'card_declined' });
    expect(await processor.chargeCard(request, card(SANDBOX_CARDS.NEEDS_AUTHENTICATION))).toMatchObject({ kind: 'requires_action' });
    const offSession = await processor.chargeCard(request, card(SANDBOX_CARDS.DECLINES_OFF_SESSION));
    expect(offSession.kind).toBe('succeeded');
    for (const outcome of [ok, offSession]) expect(JSON.stringify(outcome)).not.toMatch(/4242424242424242|4000000000000341/);
    if (offSession.kind !== 'succeeded' || !offSession.card || ok.kind !== 'succeeded' || !ok.card) throw new Error('unexpected');
    expect(await processor.chargeSavedCard(request, offSession.card)).toMatchObject({ kind: 'declined' });
    expect(await processor.chargeSavedCard(request, ok.card)).toMatchObject({ kind: 'succeeded' });
  });

  it('declines expired cards and invalid numbers', async () => {
    expect(await processor.chargeCard(request, { ...card(SANDBOX_CARDS.SUCCEEDS), expYear: 2025 })).toMatchObject({ kind: 'declined', declineCode: 'expired_card' });
    expect(await processor.chargeCard(request, card('4242424242424241'))).toMatchObject({ kind: 'declined', declineCode: 'incorrect_number' });
    expect(luhnValid(SANDBOX_CARDS.NEEDS_AUTHENTICATION)).toBe(true);
  });
});
