import { randomBase36, timeOrderedUuid } from './ids';

describe('ids', () => {
  it('makes RFC 9562 version 7 UUIDs that sort by their milliseconds and do not repeat', () => {
    const earlier = timeOrderedUuid(Date.UTC(2026, 0, 1));
    const later = timeOrderedUuid(Date.UTC(2026, 0, 1) + 1);
    expect(earlier).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(earlier < later).toBe(true);
    expect(earlier.slice(0, 13)).toBe('019b76da-a800'); // 2026-01-01T00:00:00Z = 0x019b76daa800 ms
    const sameMillisecond = Array.from({ length: 10_000 }, () => timeOrderedUuid(1_767_225_600_000));
    expect(new Set(sameMillisecond).size).toBe(10_000);
  });

  it('draws base36 characters from the whole alphabet', () => {
    const seen = new Set(randomBase36(20_000));
    expect(seen.size).toBe(36);
    expect(randomBase36(32)).toMatch(/^[0-9a-z]{32}$/);
  });
});
