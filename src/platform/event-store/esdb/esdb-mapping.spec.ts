import { AllStreamResolvedEvent, EVENT_TYPE, NO_STREAM, Position, WrongExpectedVersionError } from '@eventstore/db-client';
import { ConcurrencyError } from '../event-store.port';
import { EsdbEventStore } from './esdb-event-store';
import {
  assertThrowsOnAppendFailure,
  comparePositions,
  isSystemEvent,
  positionOf,
  subscriptionFilter,
  toEsdbPosition,
  toPortAppendError,
  toPortPosition,
  toRecorded,
} from './esdb-mapping';

/** A resolved $all event shaped like the client's output (plain data; no server involved). */
function resolved(position: Position | undefined, overrides: { type?: string; streamId?: string; commitPosition?: bigint } = {}): AllStreamResolvedEvent {
  return {
    event: {
      streamId: overrides.streamId ?? 'split-1',
      id: 'e1',
      revision: 2n,
      type: overrides.type ?? 'SplitCreated',
      data: { a: 1 },
      metadata: { correlationId: 'c', causationId: null, actor: 'a', occurredAt: '2026-01-01T00:00:00.000Z' },
      isJson: true,
      created: new Date(0),
      position,
    },
    commitPosition: overrides.commitPosition,
  } as unknown as AllStreamResolvedEvent;
}

describe('EventStoreDB adapter: positions', () => {
  it('keeps both parts of a position and orders by commit, then prepare', () => {
    const first = { commit: 500n, prepare: 100n };
    const second = { commit: 500n, prepare: 200n };
    // Two events under one commit record: reduced to the commit part (as before) they compared equal and the
    // second was dropped by the `position <= cursor` check.
    expect(comparePositions(first, second)).toBe(-1);
    expect(comparePositions(second, first)).toBe(1);
    expect(comparePositions(first, { ...first })).toBe(0);
    expect(comparePositions({ commit: 400n, prepare: 450n }, first)).toBe(-1);
  });

  it('takes the position from the event record (both parts), not from the single commitPosition', () => {
    expect(positionOf(resolved({ commit: 42n, prepare: 42n }, { commitPosition: 7n }))).toEqual({ commit: 42n, prepare: 42n });
    expect(() => positionOf(resolved(undefined, { commitPosition: 7n }))).toThrow(/without a position/);
  });

  it('maps a gRPC-written event (commit == prepare) to a port position and back', () => {
    expect(toPortPosition({ commit: 1234n, prepare: 1234n })).toBe(1234);
    expect(toEsdbPosition(1234)).toEqual({ commit: 1234n, prepare: 1234n });
    expect(toPortPosition(toEsdbPosition(0))).toBe(0);
    expect(toRecorded(resolved({ commit: 88n, prepare: 88n })).position).toBe(88);
  });

  it('refuses events of explicit transactions instead of collapsing them onto their commit position', () => {
    expect(() => toPortPosition({ commit: 500n, prepare: 200n }, 'e9')).toThrow(/e9.*explicit/);
    expect(() => toRecorded(resolved({ commit: 500n, prepare: 200n }))).toThrow(/explicit/);
  });

  it('refuses positions a number cannot hold exactly', () => {
    expect(() => toPortPosition({ commit: 2n ** 60n, prepare: 2n ** 60n })).toThrow(/safe integer/);
    expect(() => toEsdbPosition(-1)).toThrow();
    expect(() => toEsdbPosition(1.5)).toThrow();
  });
});

describe('EventStoreDB adapter: system events', () => {
  it('hides link events, system types and system streams', () => {
    expect(isSystemEvent(resolved({ commit: 1n, prepare: 1n }, { type: '$>' }))).toBe(true);
    expect(isSystemEvent(resolved({ commit: 1n, prepare: 1n }, { type: '$statsCollected', streamId: '$stats-127.0.0.1:2113' }))).toBe(true);
    expect(isSystemEvent(resolved({ commit: 1n, prepare: 1n }, { streamId: '$ce-split' }))).toBe(true);
    expect(isSystemEvent(resolved({ commit: 1n, prepare: 1n }))).toBe(false);
  });

  it('asks the server to drop system event types from subscriptions', () => {
    const filter = subscriptionFilter();
    expect(filter.filterOn).toBe(EVENT_TYPE);
    const regex = new RegExp((filter as { regex: string }).regex);
    expect(regex.test('SplitCreated')).toBe(true);
    expect(regex.test('$>')).toBe(false);
    expect(regex.test('$metadata')).toBe(false);
  });
});

describe('EventStoreDB adapter: append errors', () => {
  it("maps the client's wrong-expected-version error to a ConcurrencyError with the actual revision", () => {
    const mapped = toPortAppendError(new WrongExpectedVersionError(undefined, { streamName: 's', expected: 3n, current: 5n }), 's', 3);
    expect(mapped).toBeInstanceOf(ConcurrencyError);
    expect(mapped).toMatchObject({ streamId: 's', expected: 3, actual: 5 });
    const missing = toPortAppendError(new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: NO_STREAM }), 's', 0);
    expect(missing).toMatchObject({ actual: 'no_stream' });
  });

  it('passes other errors on unchanged', () => {
    const other = new Error('unavailable');
    expect(toPortAppendError(other, 's', 'any')).toBe(other);
  });

  it('refuses a client that resolves failed appends (throwOnAppendFailure=false) instead of trusting its revision', () => {
    expect(() => assertThrowsOnAppendFailure({ throwOnAppendFailure: false })).toThrow(/throwOnAppendFailure/);
    expect(() => assertThrowsOnAppendFailure({ throwOnAppendFailure: true })).not.toThrow();
    // Connecting is lazy in the client, so this needs no server.
    expect(() => EsdbEventStore.connect('esdb://localhost:2113?tls=false&throwOnAppendFailure=false')).toThrow(/throwOnAppendFailure/);
  });
});
