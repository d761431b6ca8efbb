import { BACKWARDS, END, EventStoreDBClient, FORWARDS, Position, ReadPosition, START, StreamNotFoundError } from '@eventstore/db-client';
import { AppendResult, ConcurrencyError, EventStore, ExpectedRevision, NewEvent, ReadAllOptions, RecordedEvent, Subscription, SubscriptionHandler } from '../event-store.port';
import {
  assertThrowsOnAppendFailure,
  comparePositions,
  isSystemEvent,
  positionOf,
  subscriptionFilter,
  toEsdbPosition,
  toEventData,
  toExpectedRevision,
  toPortAppendError,
  toRecorded,
  toSafeNumber,
} from './esdb-mapping';

const READ_ALL_PAGE_SIZE = 500;
const HEAD_PAGE_SIZE = 100;

/**
 * EventStoreDB adapter. A port position is the event's log position (prepare == commit for everything
 * written through gRPC; see esdb-mapping.ts). Events in system streams or with system types ('$...') are
 * invisible through this port. Written against @eventstore/db-client 6.2.1; see docs/operations.md for
 * what has and has not been run against a server.
 */
export class EsdbEventStore implements EventStore {
  readonly contiguousPositions = false;
  private constructor(private readonly client: EventStoreDBClient) {}

  /** e.g. esdb://admin:changeit@localhost:2113?tls=false ($all reads need an admin user on a secure node). */
  static connect(connectionString: string): EsdbEventStore {
    const client = EventStoreDBClient.connectionString(connectionString);
    try {
      // The getter is public at run time but declared protected in the client's types.
      assertThrowsOnAppendFailure(client as unknown as { readonly throwOnAppendFailure: boolean });
    } catch (error) {
      void client.dispose();
      throw error;
    }
    return new EsdbEventStore(client);
  }

  /**
   * One round trip for the append, one to read back the position of its last event. With `any` a replay is
   * recognised only by the server's idempotency check, which is best effort (a bounded cache of recent event
   * ids): see docs/decisions.md (issue 14). No stream is read before appending.
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const result = await this.client.appendToStream(streamId, events.map(toEventData), { expectedRevision: toExpectedRevision(expected) }).catch((error: unknown) => {
      throw toPortAppendError(error, streamId, expected);
    });
    // Unreachable (the constructor refuses throwOnAppendFailure=false), and the revision such a result carries is wrong.
    if (!result.success) throw new ConcurrencyError(streamId, expected, await this.currentRevision(streamId));
    // The server acknowledges an idempotent replay without a position (CommitPosition -1 -> NoPosition).
    if (!result.position) return this.requireReplay(streamId, events, expected);
    const nextExpectedRevision = toSafeNumber(result.nextExpectedRevision, 'stream revision');
    // The append's own position is not documented to be the last event's position in $all: read that event back.
    const [last] = await this.readStream(streamId, { fromRevision: nextExpectedRevision, maxCount: 1 });
    if (!last || last.id !== events[events.length - 1]!.id) throw new Error(`EventStoreDB appended to ${streamId} but revision ${nextExpectedRevision} is not its last event`);
    return { nextExpectedRevision, position: last.position };
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const read = this.client.readStream(streamId, {
      fromRevision: options.fromRevision === undefined ? START : BigInt(options.fromRevision),
      maxCount: options.maxCount,
      direction: FORWARDS,
    });
    try {
      return (await collect(read)).map(toRecorded);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? 1000;
    if (maxCount < 1) return [];
    const events: RecordedEvent[] = [];
    let cursor: Position | null = options.after === undefined ? null : toEsdbPosition(options.after);
    // The client's readAll cannot filter on the server, so system events are dropped here: keep paging until
    // maxCount visible events are found or the end of the log is reached. The cursor keeps both parts.
    for (;;) {
      const pageSize = Math.min(READ_ALL_PAGE_SIZE, maxCount + 1);
      const page = await collect(this.client.readAll({ fromPosition: cursor ?? START, maxCount: pageSize, direction: FORWARDS }));
      let advanced = false;
      for (const resolved of page) {
        const position = positionOf(resolved);
        // Reading from a position includes the event at that position; `after` is exclusive.
        if (cursor !== null && comparePositions(position, cursor) <= 0) continue;
        cursor = position;
        advanced = true;
        if (isSystemEvent(resolved)) continue;
        events.push(toRecorded(resolved));
        if (events.length === maxCount) return events;
      }
      if (page.length < pageSize) return events;
      if (!advanced) throw new Error('EventStoreDB readAll did not move past its start position');
    }
  }

  async headPosition(): Promise<number | null> {
    let from: ReadPosition = END;
    for (;;) {
      const page = await collect(this.client.readAll({ fromPosition: from, maxCount: HEAD_PAGE_SIZE, direction: BACKWARDS }));
      const last = page.find((resolved) => !isSystemEvent(resolved));
      if (last) return toRecorded(last).position;
      if (page.length < HEAD_PAGE_SIZE) return null;
      from = positionOf(page[page.length - 1]!);
    }
  }

  /**
   * `failed` resolves when the handler throws and also when the server ends or drops the call, the
   * connection is lost or the client is closed (the client surfaces a drop as an error, a cancellation as
   * the end of the stream): see the port.
   */
  subscribeToAll(after: number | null, handler: SubscriptionHandler): Subscription {
    const subscription = this.client.subscribeToAll({
      fromPosition: after === null ? START : toEsdbPosition(after),
      filter: subscriptionFilter(),
    });
    let stopped = false;
    let reportFailure!: (error: Error) => void;
    const failed = new Promise<Error>((resolve) => (reportFailure = resolve));

    const deliver = async () => {
      for await (const resolved of subscription) {
        if (stopped) return;
        if (isSystemEvent(resolved)) continue;
        const event = toRecorded(resolved);
        // The server starts the catch-up at `after` itself (inclusive); the port delivers strictly after it.
        if (after !== null && event.position <= after) continue;
        await handler(event);
      }
      if (!stopped) throw new Error('EventStoreDB ended the $all subscription');
    };

    const running = deliver()
      .catch((error: unknown) => {
        if (!stopped) reportFailure(error instanceof Error ? error : new Error(String(error)));
      })
      .finally(() => subscription.unsubscribe());

    return {
      failed,
      async stop() {
        stopped = true;
        // Cancelling the call ends the event stream, which lets the for-await loop finish.
        await subscription.unsubscribe();
        await running;
      },
    };
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  private async currentRevision(streamId: string): Promise<number | 'no_stream'> {
    try {
      const [last] = await collect(this.client.readStream(streamId, { fromRevision: END, maxCount: 1, direction: BACKWARDS }));
      return last?.event ? toSafeNumber(last.event.revision, 'stream revision') : 'no_stream';
    } catch (error) {
      if (error instanceof StreamNotFoundError) return 'no_stream';
      throw error;
    }
  }

  /**
   * Re-appending events already stored in this stream, in the same order, is a no-op (as in the SQLite
   * adapter). Only reached when the server acknowledged the append as a replay; reads the stream.
   */
  private async requireReplay(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const stored = await this.readStream(streamId);
    const ids = new Set(events.map((event) => event.id));
    const matching = stored.filter((event) => ids.has(event.id));
    if (matching.length === 0) throw new Error(`EventStoreDB acknowledged an append to ${streamId} without a position, but its events are not in the stream`);
    const head = stored[stored.length - 1]!.revision;
    const consistent = matching.length === events.length && matching.every((event, index) => event.id === events[index]!.id && event.revision === matching[0]!.revision + index);
    if (!consistent) throw new ConcurrencyError(streamId, expected, head);
    return { nextExpectedRevision: head, position: matching[matching.length - 1]!.position };
  }
}

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}
