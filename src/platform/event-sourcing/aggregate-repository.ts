import { timeOrderedUuid } from '../ids/ids';
import { Clock } from '../clock/clock';
import { Decider, DomainEvent, fold } from '../domain/decider';
import { ConcurrencyError, EventStore, ExpectedRevision, NewEvent } from '../event-store/event-store.port';
import { MetricsRegistry } from '../metrics/metrics-registry';

/** Who asked and why: becomes the metadata of every event a command appends. */
export interface CommandContext {
  actor: string;
  correlationId: string;
  causationId?: string | null;
}

export interface Decided<Event extends DomainEvent, State> {
  streamId: string;
  events: Event[];
  state: State;
  /**
   * Global position of the last event appended or, when the command decided nothing, of the last event
   * of the stream it read (null for an empty stream): a no-op answer waits for that, so it is never
   * older than the state it decided on (issue 15).
   */
  position: number | null;
  revision: number | null;
}

/** How many streams' folded states AggregateRepository keeps (a Split's state is a few KB). */
const FOLDED_STREAMS_CACHED = 5_000;

/**
 * Runs a command against a stream: load, fold, decide, append with the expected revision. On a
 * concurrent write it reloads and decides again (a few times) so the rule check always sees the truth.
 */
export class AggregateRepository {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly metrics: MetricsRegistry,
  ) {}

  /**
   * Folded states of recently loaded streams, by stream id, least recently used first. A load reads only
   * the events after the cached revision (from the store, so appends by other processes are seen) and
   * folds them onto the cached state: a process manager loads the same Split once per event it reacts to
   * and once per command it sends, and reading and folding the whole stream each time was a quarter of
   * the worker's time under settlement load (docs/decisions.md). Streams are never deleted or rewritten,
   * and states are immutable values (evolve returns a new state), so a cached state cannot go stale.
   */
  private readonly folded = new Map<string, { decider: object; state: unknown; revision: number; position: number }>();

  async load<Event extends DomainEvent, State>(
    streamId: string,
    decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  ): Promise<{ state: State; revision: number | null; position: number | null }> {
    const cached = this.folded.get(streamId);
    const known = cached && cached.decider === decider ? cached : null;
    const recorded = await this.store.readStream(streamId, known ? { fromRevision: known.revision + 1 } : {});
    const events = recorded.map((e) => ({ type: e.type, data: e.data }) as Event);
    const state = known ? events.reduce(decider.evolve, known.state as State) : fold(decider, events);
    const last = recorded.length ? recorded[recorded.length - 1]! : null;
    const revision = last?.revision ?? known?.revision ?? null;
    const position = last?.position ?? known?.position ?? null;
    if (revision !== null && position !== null) this.remember(streamId, { decider, state, revision, position });
    return { state, revision, position };
  }

  private remember(streamId: string, entry: { decider: object; state: unknown; revision: number; position: number }): void {
    this.folded.delete(streamId);
    this.folded.set(streamId, entry);
    if (this.folded.size > FOLDED_STREAMS_CACHED) this.folded.delete(this.folded.keys().next().value!);
  }

  async handle<Command, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    context: CommandContext,
    options: { expected?: ExpectedRevision; retries?: number } = {},
  ): Promise<Decided<Event, State>> {
    for (let attempt = 0; ; attempt++) {
      const { state, revision, position } = await this.load(streamId, decider);
      const events = decider.decide(command, state);
      if (events.length === 0) return { streamId, events, state, position, revision };
      try {
        const expected = options.expected ?? (revision === null ? 'no_stream' : revision);
        const result = await this.append(streamId, events, expected, context, commandTime(command));
        return {
          streamId,
          events,
          state: events.reduce((folded, event) => decider.evolve(folded, event), state),
          position: result.position,
          revision: result.nextExpectedRevision,
        };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || options.expected !== undefined || attempt >= (options.retries ?? 3)) throw error;
      }
    }
  }

  /**
   * Starts a stream: decides against the initial state and appends with `no_stream`, without reading
   * first. A ConcurrencyError means the stream already exists; the caller decides what that means
   * (an idempotent replay, usually).
   */
  async create<Command, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    context: CommandContext,
  ): Promise<Decided<Event, State>> {
    const state = decider.initialState();
    const events = decider.decide(command, state);
    if (events.length === 0) return { streamId, events, state, position: null, revision: null };
    const result = await this.append(streamId, events, 'no_stream', context, commandTime(command));
    return { streamId, events, state: events.reduce((folded, event) => decider.evolve(folded, event), state), position: result.position, revision: result.nextExpectedRevision };
  }

  /**
   * `at`: the clock reading the command was decided with, if it carried one (`data.now`); the events'
   * `occurredAt` is then that same instant, so `?asOf` a time stamped in the data (a `createdAt`) finds
   * the event that recorded it. Without one the clock is read here, once for all the events.
   */
  async append(streamId: string, events: DomainEvent[], expected: ExpectedRevision, context: CommandContext, at?: Date) {
    const now = at ?? this.clock.now();
    const occurredAt = now.toISOString();
    const stored: NewEvent[] = events.map((event) => ({
      id: timeOrderedUuid(now.getTime()),
      type: event.type,
      data: event.data,
      metadata: { correlationId: context.correlationId, causationId: context.causationId ?? null, actor: context.actor, occurredAt },
    }));
    const result = await this.store.append(streamId, stored, expected);
    this.metrics.increment('paysplit_events_appended_total', {}, events.length);
    return result;
  }
}

/**
 * The time a command was decided at: its `data.now` (every decider command that stamps a time carries
 * it), or for a create-once command the `createdAt` of the event it creates.
 */
export function commandTime(command: unknown): Date | undefined {
  const shaped = command as { data?: { now?: unknown }; event?: { data?: { createdAt?: unknown } } } | null;
  const now = shaped?.data?.now ?? shaped?.event?.data?.createdAt;
  if (typeof now !== 'string') return undefined;
  const at = new Date(now);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
