import { BoundedMap } from '../caching/bounded-map';
import { timeOrderedUuid } from '../ids/ids';
import { Clock } from '../clock/clock';
import { Decider, DomainEvent, fold } from '../domain/decider';
import { CommandMetadata } from '../domain/command';
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

/**
 * `beforeAppend`: what must happen once a decision is known and before it is appended (set money aside,
 * provision the contractors it names); it gets the state decided on and the events decided, and a throw
 * appends nothing. The decision is appended at exactly the revision it was decided on; one that loses a
 * race is decided again and `beforeAppend` runs again, so it must be idempotent. The decider decides;
 * the handler never runs it as a dry run first.
 */
export interface HandleOptions<Event extends DomainEvent, State> {
  expected?: ExpectedRevision;
  retries?: number;
  beforeAppend?: (decision: { state: State; events: Event[] }) => Promise<void>;
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
   * Folded states of the streams loaded last, by stream id (BoundedMap). A load reads only
   * the events after the cached revision (from the store, so appends by other processes are seen) and
   * folds them onto the cached state: a process manager loads the same Split once per event it reacts to
   * and once per command it sends, and reading and folding the whole stream each time was a quarter of
   * the worker's time under settlement load (docs/decisions.md). Streams are never deleted or rewritten,
   * and states are immutable values (evolve returns a new state), so a cached state cannot go stale.
   */
  private readonly folded = new BoundedMap<string, { decider: object; state: unknown; revision: number; position: number }>(FOLDED_STREAMS_CACHED);

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
    // A load that read before an append of this process finished may come back after it: keep the newer.
    const known = this.folded.get(streamId);
    if (known && known.decider === entry.decider && known.revision > entry.revision) return;
    this.folded.set(streamId, entry);
  }

  async handle<Command extends Stamped, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    context: CommandContext,
    options: HandleOptions<Event, State> = {},
  ): Promise<Decided<Event, State>> {
    return this.handleAll(streamId, decider, [command], context, options);
  }

  /**
   * Several commands on one stream as one decision: each is decided on the state the ones before it lead
   * to, and all their events go in one append, each stamped with its own command's time (see append). The
   * events are exactly those the commands would append one after another; only the reads and appends
   * in between are saved. One refusal refuses them all: nothing is appended.
   */
  async handleAll<Command extends Stamped, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    commands: Command[],
    context: CommandContext,
    options: HandleOptions<Event, State> = {},
  ): Promise<Decided<Event, State>> {
    // A decision with work before its append is decided on a fresh read: that work must not rest on a stale cache.
    if (options.expected === undefined && !options.beforeAppend) {
      const decided = await this.handleOnCachedState(streamId, decider, commands, context);
      if (decided) return decided;
    }
    for (let attempt = 0; ; attempt++) {
      const { state, revision, position } = await this.load(streamId, decider);
      const decision = decideAll(decider, commands, state);
      if (decision.events.length === 0) return { streamId, events: [], state, position, revision };
      await options.beforeAppend?.({ state, events: decision.events });
      try {
        // An expected revision the caller chose ('any') does not prove the state current: do not cache it.
        const expected = options.expected ?? (revision === null ? 'no_stream' : revision);
        return await this.appendDecided(streamId, decider, decision, expected, context, options.expected === undefined);
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || options.expected !== undefined || attempt >= (options.retries ?? 3)) throw error;
      }
    }
  }

  /**
   * Decides on the state cached for the stream without reading the stream, and keeps the decision only if
   * it appends something: the append expects the cached revision, so it succeeds only if the state was
   * the stream's current one. Null (decide on a fresh read instead) when nothing is cached, when the
   * stream moved on (ConcurrencyError), or when the decision appends nothing or refuses: such a decision
   * appends nothing that could prove the state current, and may rest on events the cache has not seen.
   * A process manager's commands go to the stream it has just loaded, or to a payout this process has
   * just appended to; reading the stream again for each was a tenth of the worker under settlement load.
   */
  private async handleOnCachedState<Command extends Stamped, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    commands: Command[],
    context: CommandContext,
  ): Promise<Decided<Event, State> | null> {
    const cached = this.folded.get(streamId);
    if (!cached || cached.decider !== decider) return null;
    let decision: Decision<Event, State>;
    try {
      decision = decideAll(decider, commands, cached.state as State);
    } catch {
      return null; // decided again on a fresh read, which throws the error if it stands
    }
    if (decision.events.length === 0) return null;
    try {
      return await this.appendDecided(streamId, decider, decision, cached.revision, context, true);
    } catch (error) {
      if (error instanceof ConcurrencyError) return null;
      throw error;
    }
  }

  /** Appends a decision; `cache`: the append checked the revision it was decided at, so the stream is now exactly at its state. */
  private async appendDecided<Event extends DomainEvent, State>(
    streamId: string,
    decider: object,
    { events, times, state }: Decision<Event, State>,
    expected: ExpectedRevision,
    context: CommandContext,
    cache: boolean,
  ): Promise<Decided<Event, State>> {
    const result = await this.append(streamId, events, expected, context, times);
    if (cache) this.remember(streamId, { decider, state, revision: result.nextExpectedRevision, position: result.position });
    return { streamId, events, state, position: result.position, revision: result.nextExpectedRevision };
  }

  /**
   * Starts a stream: decides against the initial state and appends with `no_stream`, without reading
   * first. A ConcurrencyError means the stream already exists; the caller decides what that means
   * (an idempotent replay, usually).
   */
  async create<Command extends Stamped, Event extends DomainEvent, State>(
    streamId: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    context: CommandContext,
    options: Pick<HandleOptions<Event, State>, 'beforeAppend'> = {},
  ): Promise<Decided<Event, State>> {
    const state = decider.initialState();
    const events = decider.decide(command, state);
    if (events.length === 0) return { streamId, events, state, position: null, revision: null };
    await options.beforeAppend?.({ state, events });
    const result = await this.append(streamId, events, 'no_stream', context, commandTime(command));
    return { streamId, events, state: events.reduce((folded, event) => decider.evolve(folded, event), state), position: result.position, revision: result.nextExpectedRevision };
  }

  /**
   * `at`: the clock reading the command was decided with (its `metadata.now`, see commandTime); the events'
   * `occurredAt` is then that same instant, so `?asOf` a time stamped in the data (a `createdAt`) finds
   * the event that recorded it. Without one the clock is read here, once for all the events (events written
   * without a command: legacy fixtures in tests). An array gives each event its own (the events of several
   * commands decided together).
   */
  async append(streamId: string, events: DomainEvent[], expected: ExpectedRevision, context: CommandContext, at?: Date | Date[]) {
    let clockReading: Date | undefined;
    const timeOf = (index: number) => (Array.isArray(at) ? at[index] : at) ?? (clockReading ??= this.clock.now());
    const stored: NewEvent[] = events.map((event, index) => {
      const now = timeOf(index);
      return {
        id: timeOrderedUuid(now.getTime()),
        type: event.type,
        data: event.data,
        metadata: { correlationId: context.correlationId, causationId: context.causationId ?? null, actor: context.actor, occurredAt: now.toISOString() },
      };
    });
    const result = await this.store.append(streamId, stored, expected);
    this.metrics.increment('paysplit_events_appended_total', {}, events.length);
    return result;
  }
}

/** Events decided by one or more commands, the time of the command that decided each, and the state they lead to. */
interface Decision<Event, State> {
  events: Event[];
  times: Date[];
  state: State;
}

function decideAll<Command extends Stamped, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
  commands: Command[],
  initial: State,
): Decision<Event, State> {
  const decision: Decision<Event, State> = { events: [], times: [], state: initial };
  for (const command of commands) {
    const events = decider.decide(command, decision.state);
    const at = commandTime(command);
    for (const event of events) {
      decision.events.push(event);
      decision.times.push(at);
      decision.state = decider.evolve(decision.state, event);
    }
  }
  return decision;
}

/**
 * What the repository asks of every command it decides: its metadata (CommandMetadata, required, stamped
 * by commandMetadata). A command type without it does not compile against handle, handleAll or create.
 */
export type Stamped = { metadata: CommandMetadata };

/** The time a command was decided at: its `metadata.now`; its events' `occurredAt` (issue 25, docs/decisions.md). */
export function commandTime(command: Stamped): Date {
  const at = new Date(command.metadata.now);
  if (Number.isNaN(at.getTime())) throw new Error(`A command's metadata.now must be an ISO-8601 time, got ${JSON.stringify(command.metadata.now)}`);
  return at;
}
