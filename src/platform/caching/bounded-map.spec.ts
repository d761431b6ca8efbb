import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('keeps the keys written last and forgets the one written longest ago', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([map.has('a'), map.get('b'), map.get('c'), map.size]).toEqual([false, 2, 3, 2]);
  });

  it('counts a key written again as the newest, with its new value', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect([map.get('a'), map.has('b'), map.get('c')]).toEqual([10, false, 3]);
  });

  it('stays exact over many writes of few keys and many evictions (the queue is compacted, not trusted)', () => {
    const map = new BoundedMap<number, number>(4);
    for (let i = 0; i < 10_000; i++) map.set(i % 4 === 0 ? 0 : i, i);
    // Key 0 was written every fourth time, last at 9,996, then 9,997, 9,998 and 9,999; 9,995 came before them.
    expect([map.size, map.get(0), map.get(9_997), map.get(9_999), map.has(9_995)]).toEqual([4, 9_996, 9_997, 9_999, false]);
    const queueLength = (map as unknown as { order: unknown[] }).order.length;
    expect(queueLength).toBeLessThanOrEqual(3 * 4 + 1);
  });

  it('keeps a bounded queue while the same few keys are written again and again (nothing evicted)', () => {
    const map = new BoundedMap<string, number>(8);
    for (let i = 0; i < 100_000; i++) map.set(`k${i % 5}`, i);
    expect(map.size).toBe(5);
    expect(map.get('k4')).toBe(99_999);
    expect((map as unknown as { order: unknown[] }).order.length).toBeLessThanOrEqual(3 * 8 + 1);
  });

  it('clear forgets everything', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).clear();
    expect([map.size, map.has('a')]).toEqual([0, false]);
    map.set('b', 2);
    expect(map.get('b')).toBe(2);
  });

  it('refuses a capacity below one', () => {
    expect(() => new BoundedMap(0)).toThrow('at least one entry');
  });
});
