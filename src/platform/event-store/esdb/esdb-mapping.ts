import {
  ANY,
  AllStreamResolvedEvent,
  AppendExpectedRevision,
  CurrentRevision,
  EventData,
  JSONType,
  NO_STREAM,
  Position,
  ResolvedEvent,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import { ConcurrencyError, EventMetadata, ExpectedRevision, NewEvent, RecordedEvent } from '../event-store.port';

/**
 * The pure part of the EventStoreDB adapter: position conversion, error mapping, event mapping and the
 * subscription filter. Unit-tested without a server (esdb-mapping.spec.ts); see docs/decisions.md (issue 14).
 */

export type EsdbResolvedEvent = ResolvedEvent | AllStreamResolvedEvent;

/**
 * An event's log position as the client reports it (`{commit, prepare}`). The `commitPosition` of a resolved
 * event is not used: it carries only one of the two parts.
 */
export function positionOf(resolved: EsdbResolvedEvent): Position {
  const position = resolved.event?.position;
  if (!position) throw new Error(`EventStoreDB returned event ${resolved.event?.id ?? '(link without event)'} without a position (server older than 22.6?)`);
  return position;
}

/** Orders two log positions the way the server orders $all: by commit, then by prepare. */
export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/**
 * The port's position of an event: its prepare position (each event has its own, also inside one append).
 * Every append made through gRPC is written as implicitly committed prepares, which the server reports with
 * commit == prepare; only legacy TCP transactions put several events under one later commit record, and
 * their prepare positions are not in $all order. Rather than drop or reorder such events, refuse them.
 */
export function toPortPosition(position: Position, eventId = '?'): number {
  if (position.commit !== position.prepare) {
    throw new Error(
      `EventStoreDB event ${eventId} is at commit ${position.commit} / prepare ${position.prepare}: it was written in an explicit ` +
        '(legacy TCP) transaction, which this adapter does not support (see docs/decisions.md, issue 14)',
    );
  }
  return toSafeNumber(position.prepare, 'position');
}

/** The log position to read from for a port position (an event's position is commit == prepare). */
export function toEsdbPosition(position: number): Position {
  if (!Number.isSafeInteger(position) || position < 0) throw new Error(`Not an EventStoreDB position: ${position}`);
  const exact = BigInt(position);
  return { commit: exact, prepare: exact };
}

/** `$`-prefixed streams and types are the server's (stats, settings, projections' `$>` links); the port hides them. */
export function isSystemEvent(resolved: EsdbResolvedEvent): boolean {
  const event = resolved.event;
  return !event || event.type.startsWith('$') || event.streamId.startsWith('$');
}

/**
 * The server-side filter for $all subscriptions: the client's `excludeSystemEvents` (event type not starting
 * with `$`). System events in `$` streams with ordinary types still pass it; `isSystemEvent` drops those.
 * The client's readAll has no filter option (it always sends NoFilter), so reads filter on the client.
 */
export function subscriptionFilter() {
  return excludeSystemEvents();
}

export function toRecorded(resolved: EsdbResolvedEvent): RecordedEvent {
  const event = resolved.event;
  if (!event) throw new Error('EventStoreDB returned a link without its event');
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata as EventMetadata,
    streamId: event.streamId,
    revision: toSafeNumber(event.revision, 'stream revision'),
    position: toPortPosition(positionOf(resolved), event.id),
  };
}

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata });
}

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return BigInt(expected);
}

export function toActualRevision(revision: CurrentRevision): number | 'no_stream' {
  return revision === NO_STREAM ? 'no_stream' : toSafeNumber(revision, 'stream revision');
}

/**
 * Maps what a failed append threw to what the port promises: the client's WrongExpectedVersionError becomes a
 * ConcurrencyError with the actual revision the server reported; anything else is passed on unchanged.
 */
export function toPortAppendError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (error instanceof WrongExpectedVersionError) return new ConcurrencyError(streamId, expected, toActualRevision(error.actualVersion));
  return error;
}

/**
 * With `throwOnAppendFailure=false` the client resolves a failed append instead of throwing, and on its
 * batch-append path (the default) it reports the actual revision as 1n or 0n (it converts
 * `hasCurrentStreamRevision()`, a boolean, to a bigint). The adapter refuses such a client.
 */
export function assertThrowsOnAppendFailure(client: { readonly throwOnAppendFailure: boolean }): void {
  if (!client.throwOnAppendFailure) {
    throw new Error('EventStoreDB connection string sets throwOnAppendFailure=false; the event store needs the default (true)');
  }
}

export function toSafeNumber(value: bigint, what: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`EventStoreDB ${what} ${value} is not a safe integer`);
  return number;
}
