import { nextTransferAttempt, nextTransferAttemptAt, netTermsMaturity } from './row-transfer-schedule';

describe('row transfer schedule', () => {
  const now = '2026-01-01T00:00:00.000Z';

  it('retries a failed transfer after 1 min, 10 min, 1 h, then every 6 h', () => {
    expect([1, 2, 3, 4, 9].map((attempt) => nextTransferAttemptAt(attempt, now))).toEqual([
      '2026-01-01T00:01:00.000Z',
      '2026-01-01T00:10:00.000Z',
      '2026-01-01T01:00:00.000Z',
      '2026-01-01T06:00:00.000Z',
      '2026-01-01T06:00:00.000Z',
    ]);
  });

  it('matures at funding plus the net terms', () => {
    expect(netTermsMaturity(now, 30)).toBe('2026-01-31T00:00:00.000Z');
  });

  it('numbers attempts from 1 and fixes one payout id per attempt', () => {
    const first = nextTransferAttempt({ status: 'none' }, 'spl_1', 'dst_1');
    expect(first.attempt).toBe(1);
    expect(nextTransferAttempt({ status: 'none' }, 'spl_1', 'dst_1').payoutId).toBe(first.payoutId);
    expect(nextTransferAttempt({ status: 'none' }, 'spl_1', 'dst_2').payoutId).not.toBe(first.payoutId);
  });
});
