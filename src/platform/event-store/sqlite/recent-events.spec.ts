import { RecordedEvent } from '../event-store.port';
import { RecentEvents } from './recent-events';

const event = (position: number): RecordedEvent => ({
  id: `e${position}`,
  type: 'T',
  data: { nested: { position } },
  metadata: { correlationId: 'c', causationId: null, actor: 'a', occurredAt: '2026-01-01T00:00:00.000Z' },
  streamId: 's',
  revision: position - 1,
  position,
});

describe('RecentEvents', () => {
  it('serves only an unbroken run of positions right after the one asked for', () => {
    const recent = new RecentEvents(100);
    recent.remember([event(1), event(2), event(3), event(5)]);
    expect(recent.runAfter(0, 10).map((e) => e.position)).toEqual([1, 2, 3]);
    expect(recent.runAfter(1, 1).map((e) => e.position)).toEqual([2]);
    expect(recent.runAfter(3, 10)).toEqual([]);
    expect(recent.runAfter(4, 10).map((e) => e.position)).toEqual([5]);
  });

  it('hands out frozen events, so one subscriber cannot change what the next one reads', () => {
    const recent = new RecentEvents(100);
    const [stored] = recent.remember([event(1)]);
    expect(() => {
      (stored!.data as { nested: { position: number } }).nested.position = 99;
    }).toThrow(TypeError);
  });

  it('forgets the oldest events beyond its capacity', () => {
    const recent = new RecentEvents(2);
    recent.remember([event(1), event(2), event(3)]);
    expect(recent.runAfter(0, 10)).toEqual([]);
    expect(recent.runAfter(1, 10).map((e) => e.position)).toEqual([2, 3]);
  });
});
