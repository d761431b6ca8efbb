import { periodStart } from './renewal-schedule';

const at = (iso: string) => new Date(iso);
const dates = (anchor: string, unit: 'MONTHLY' | 'YEARLY', count: number) => Array.from({ length: count }, (_, n) => periodStart(at(anchor), unit, n).toISOString().slice(0, 10));

describe('periodStart (anchored renewal dates with month-end clamp)', () => {
  it('clamps a Jan 31 anchor to the end of short months and comes back to the 31st', () => {
    expect(dates('2025-01-31T10:00:00.000Z', 'MONTHLY', 5)).toEqual(['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30', '2025-05-31']);
  });

  it('uses Feb 29 in a leap year', () => {
    expect(dates('2024-01-31T00:00:00.000Z', 'MONTHLY', 3)).toEqual(['2024-01-31', '2024-02-29', '2024-03-31']);
  });

  it('keeps the anchor time of day and crosses year ends', () => {
    expect(periodStart(at('2025-11-15T08:30:12.345Z'), 'MONTHLY', 3).toISOString()).toBe('2026-02-15T08:30:12.345Z');
    expect(dates('2025-12-31T00:00:00.000Z', 'MONTHLY', 13).slice(-2)).toEqual(['2026-11-30', '2026-12-31']);
  });

  it('is 12 months for YEARLY, clamping Feb 29 to Feb 28 in common years', () => {
    expect(dates('2024-02-29T00:00:00.000Z', 'YEARLY', 5)).toEqual(['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']);
  });

  it('refuses a negative or fractional period index', () => {
    expect(() => periodStart(at('2025-01-01T00:00:00Z'), 'MONTHLY', -1)).toThrow();
    expect(() => periodStart(at('2025-01-01T00:00:00Z'), 'MONTHLY', 1.5)).toThrow();
  });
});
