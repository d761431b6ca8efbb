import { KnownHead } from './known-head';

describe('KnownHead', () => {
  let nowMs = 0;
  const head = () => new KnownHead(1_000, () => nowMs);
  beforeEach(() => (nowMs = 0));

  it('knows nothing before a read reached the end of the log', () => {
    expect(head().nothingAfter(0)).toBe(false);
  });

  it('knows nothing lies after the end a read found, or after any later position, while no commit is told of', () => {
    const known = head();
    known.reachedEnd(7, known.readStart());
    expect(known.nothingAfter(7)).toBe(true);
    expect(known.nothingAfter(9)).toBe(true);
    expect(known.nothingAfter(6)).toBe(false);
  });

  it('forgets the end once a commit is told of, even one told of while the read ran', () => {
    const known = head();
    const start = known.readStart();
    known.commitToldOf();
    known.reachedEnd(7, start);
    expect(known.nothingAfter(7)).toBe(false);
    known.reachedEnd(8, known.readStart());
    expect(known.nothingAfter(8)).toBe(true);
    known.commitToldOf();
    expect(known.nothingAfter(8)).toBe(false);
  });

  it('keeps the end found by the later read when an earlier read finishes after it', () => {
    const known = head();
    const earlier = known.readStart();
    known.commitToldOf();
    known.reachedEnd(9, known.readStart());
    known.reachedEnd(7, earlier);
    expect(known.nothingAfter(8)).toBe(false);
    expect(known.nothingAfter(9)).toBe(true);
  });

  it('reads the log again once the end it knows is as old as the last-resort poll interval (a lost wake-up)', () => {
    const known = head();
    known.reachedEnd(7, known.readStart());
    nowMs = 999;
    expect(known.nothingAfter(7)).toBe(true);
    nowMs = 1_000;
    expect(known.nothingAfter(7)).toBe(false);
  });
});
