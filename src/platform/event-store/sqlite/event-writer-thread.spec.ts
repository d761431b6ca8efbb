import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../../../../test/support/temp-dir';
import { EventWriterThread } from './event-writer-thread';
import { EVENTS_SCHEMA } from './sqlite-event-store';
import { AppendRequest } from './group-appender';

const group = (streamId: string): AppendRequest[] => [
  {
    streamId,
    expected: 'no_stream',
    events: [[`evt-${streamId}`, 'thing.happened', '{}', '{"correlationId":"c","causationId":null,"actor":"t","occurredAt":"2026-01-01T00:00:00.000Z"}']],
  },
];

describe('EventWriterThread', () => {
  it('rejects every group in flight, and every later one, with the reason when the thread fails', async () => {
    // The thread cannot open a file in a folder that does not exist: it fails after the groups were sent.
    const writer = new EventWriterThread(join(tempDir('writer-thread-fails'), 'missing', 'events.db'));
    const inFlight = [writer.commit(group('a')), writer.commit(group('b'))];
    for (const outcome of await Promise.allSettled(inFlight)) {
      expect(outcome.status).toBe('rejected');
      expect(String((outcome as PromiseRejectedResult).reason)).toContain("the event store's writer thread failed");
    }
    await expect(writer.commit(group('c'))).rejects.toThrow("the event store's writer thread failed");
  });

  it('commits and answers two groups sent at once in the order sent', async () => {
    const file = join(tempDir('writer-thread-order'), 'events.db');
    const schema = new Database(file);
    schema.exec(EVENTS_SCHEMA);
    schema.close();
    const writer = new EventWriterThread(file);
    const answered: string[] = [];
    const [first, second] = await Promise.all([writer.commit(group('a')).finally(() => answered.push('a')), writer.commit(group('b')).finally(() => answered.push('b'))]);
    expect(answered).toEqual(['a', 'b']);
    expect([first, second]).toEqual([[{ ok: { nextExpectedRevision: 0, position: 1 } }], [{ ok: { nextExpectedRevision: 0, position: 2 } }]]);
    await writer.stop();
  });
});
