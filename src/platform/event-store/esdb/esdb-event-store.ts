import {
  ANY,
  AllStreamResolvedEvent,
  AppendExpectedRevision,
  BACKWARDS,
  CurrentRevision,
  END,
  EventData,
  EventStoreDBClient,
  FORWARDS,
  JSONType,
  NO_STREAM,
  Position,
  ReadPosition,
  ResolvedEvent,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import {
  AppendResult,
  ConcurrencyError,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  RecordedEvent,
  Subscription,
  SubscriptionHandler,
} from '../event-store.port';

type EsdbResolvedEvent = ResolvedEvent | AllStreamResolvedEvent;

const READ_ALL_PAGE_SIZE = 500;
const HEAD_PAGE_SIZE = 100;

/**
 * EventStoreDB adapter. Positions are commit positions of the transaction log (byte offsets, so not
 * contiguous). Events in system streams or with system types ('$...') are invisible through this port.
 */
export class EsdbEventStore implements EventStore {
  private constructor(private readonly client: EventStoreDBClient) {}

  /** e.g. esdb://admin:changeit@localhost:2113?tls=false ($all reads need an admin user on a secure node). */
  static connect(connectionString: string): EsdbEventStore {
    return new EsdbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    // With ANY the server's idempotency check only consults a bounded cache of recent event ids (documented as
    // best effort), so a late replay would duplicate the events: look for them in the stream first.
    if (expected === 'any') {
      const replay = await this.idempotentReplay(streamId, events, expected);
      if (replay) return replay;
    }
    const result = await this.appendToStream(streamId, events, expected);
    // The server acknowledges an idempotent replay without a position (CommitPosition -1 -> NoPosition).
    if (!result.position) return this.requireReplay(streamId, events, expected);
    return {
      nextExpectedRevision: toSafeNumber(result.nextExpectedRevision, 'stream revision'),
      position: toSafeNumber(result.position.commit, 'position'),
    };
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
    let cursor = options.after === undefined ? null : BigInt(options.after);
    // System events are filtered here (the client has no server-side filter for reads), so keep paging until
    // maxCount visible events are found or the end of the log is reached.
    for (;;) {
      const pageSize = Math.min(READ_ALL_PAGE_SIZE, maxCount + 1);
      const page = await collect(this.client.readAll({ fromPosition: cursor === null ? START : toEsdbPosition(cursor), maxCount: pageSize, direction: FORWARDS }));
      for (const resolved of page) {
        const position = commitPositionOf(resolved);
        // Reading from a position includes the event at that position; `after` is exclusive.
        if (cursor !== null && position <= cursor) continue;
        cursor = position;
        if (isSystemEvent(resolved)) continue;
        events.push(toRecorded(resolved));
        if (events.length === maxCount) return events;
      }
      if (page.length < pageSize) return events;
    }
  }

  async headPosition(): Promise<number | null> {
    let from: ReadPosition = END;
    for (;;) {
      const page = await collect(this.client.readAll({ fromPosition: from, maxCount: HEAD_PAGE_SIZE, direction: BACKWARDS }));
      const last = page.find((resolved) => !isSystemEvent(resolved));
      if (last) return toSafeNumber(commitPositionOf(last), 'position');
      if (page.length < HEAD_PAGE_SIZE) return null;
      from = toEsdbPosition(commitPositionOf(page[page.length - 1]!));
    }
  }

  subscribeToAll(after: number | null, handler: SubscriptionHandler): Subscription {
    const subscription = this.client.subscribeToAll({
      fromPosition: after === null ? START : toEsdbPosition(BigInt(after)),
      filter: excludeSystemEvents(),
    });
    let stopped = false;
    let reportFailure!: (error: Error) => void;
    const failed = new Promise<Error>((resolve) => (reportFailure = resolve));

    const deliver = async () => {
      for await (const resolved of subscription) {
        if (stopped) return;
        if (isSystemEvent(resolved)) continue;
        const event = toRecorded(resolved);
        // The server may start the catch-up at `after` itself; the port delivers strictly after it.
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

  private async appendToStream(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    const result = await this.client.appendToStream(streamId, events.map(toEventData), { expectedRevision: toExpectedRevision(expected) }).catch((error: unknown) => {
      if (error instanceof WrongExpectedVersionError) {
        throw new ConcurrencyError(streamId, expected, toActualRevision(error.actualVersion));
      }
      throw error;
    });
    // Only reachable when the connection string sets throwOnAppendFailure=false.
    if (!result.success) {
      const actual = result.nextExpectedRevision < 0n ? NO_STREAM : result.nextExpectedRevision;
      throw new ConcurrencyError(streamId, expected, toActualRevision(actual));
    }
    return result;
  }

  /** Re-appending events already stored in this stream, in the same order, is a no-op (as in the SQLite adapter). */
  private async idempotentReplay(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult | null> {
    const stored = await this.readStream(streamId);
    const ids = new Set(events.map((event) => event.id));
    const matching = stored.filter((event) => ids.has(event.id));
    if (matching.length === 0) return null;
    const head = stored[stored.length - 1]!.revision;
    const consistent = matching.length === events.length && matching.every((event, index) => event.id === events[index]!.id && event.revision === matching[0]!.revision + index);
    if (!consistent) throw new ConcurrencyError(streamId, expected, head);
    return { nextExpectedRevision: head, position: matching[matching.length - 1]!.position };
  }

  private async requireReplay(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const replay = await this.idempotentReplay(streamId, events, expected);
    if (!replay) throw new Error(`EventStoreDB acknowledged an append to ${streamId} without a position, but its events are not in the stream`);
    return replay;
  }
}

function toEventData(event: NewEvent): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata });
}

function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return BigInt(expected);
}

function toActualRevision(revision: CurrentRevision): number | 'no_stream' {
  return revision === NO_STREAM ? 'no_stream' : toSafeNumber(revision, 'stream revision');
}

function isSystemEvent(resolved: EsdbResolvedEvent): boolean {
  const event = resolved.event;
  return !event || event.type.startsWith('$') || event.streamId.startsWith('$');
}

function toRecorded(resolved: EsdbResolvedEvent): RecordedEvent {
  const event = resolved.event;
  if (!event) throw new Error('EventStoreDB returned a link without its event');
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata as EventMetadata,
    streamId: event.streamId,
    revision: toSafeNumber(event.revision, 'stream revision'),
    position: toSafeNumber(commitPositionOf(resolved), 'position'),
  };
}

function commitPositionOf(resolved: EsdbResolvedEvent): bigint {
  const commit = resolved.commitPosition ?? resolved.event?.position?.commit;
  if (commit === undefined) throw new Error(`EventStoreDB returned event ${resolved.event?.id} without a position (server too old?)`);
  return commit;
}

/**
 * The port exposes only the commit position. For non-transactional appends (all this adapter does) the
 * server reports every event at prepare == commit == its own log position, so the pair is rebuilt from it.
 */
function toEsdbPosition(commit: bigint): Position {
  return { commit, prepare: commit };
}

function toSafeNumber(value: bigint, what: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`EventStoreDB ${what} ${value} is not a safe integer`);
  return number;
}

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}
