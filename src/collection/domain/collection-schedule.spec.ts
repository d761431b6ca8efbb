import { invoiceSteps } from './collection-schedule';

describe('collection schedule', () => {
  it('reminds 3 days before the due date, on it (when the invoice goes overdue) and 7 days after', () =>
    expect(invoiceSteps('2026-03-01T12:00:00.000Z', '2026-03-31T12:00:00.000Z')).toEqual([
      { step: 'BEFORE_DUE', at: '2026-03-28T12:00:00.000Z' },
      { step: 'DUE', at: '2026-03-31T12:00:00.000Z' },
      { step: 'AFTER_DUE', at: '2026-04-07T12:00:00.000Z' },
    ]));

  it('skips the reminder before the due date when it would come before the invoice (net terms under 3 days)', () =>
    expect(invoiceSteps('2026-03-01T12:00:00.000Z', '2026-03-02T12:00:00.000Z').map((s) => s.step)).toEqual(['DUE', 'AFTER_DUE']));
});
