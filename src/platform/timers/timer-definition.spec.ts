import { defineTimer } from './timer-definition';

describe('defineTimer', () => {
  const renewal = defineTimer<{ subscriptionId: string; periodIndex: number }>('checkout.renewal', (p) => [p.subscriptionId, p.periodIndex]);

  it('makes the id from the kind and the key parts, so scheduling twice is one timer', () => {
    expect(renewal.id({ subscriptionId: 'sub_1', periodIndex: 2 })).toBe('checkout.renewal:sub_1:2');
    expect(renewal.at('2026-01-01T00:00:00.000Z', { subscriptionId: 'sub_1', periodIndex: 2 })).toEqual({
      id: 'checkout.renewal:sub_1:2',
      kind: 'checkout.renewal',
      dueAt: '2026-01-01T00:00:00.000Z',
      payload: { subscriptionId: 'sub_1', periodIndex: 2 },
    });
  });

  it('refuses to read the payload of a timer of another kind', () => {
    expect(() => renewal.payloadOf({ id: 'x', kind: 'webhook.attempt', dueAt: '', payload: {}, attempts: 0 })).toThrow('not a checkout.renewal');
  });
});
