import { ICommand } from '@nestjs/cqrs';
import { Decider, DomainEvent } from '../domain/decider';
import { RecordedEvent } from '../event-store/event-store.port';
import { StreamPrefixes } from '../projections/projection';
import { NewTimer, Timer } from '../read-store/read-store.port';
import { TimerDefinition } from '../timers/timer-definition';

/** What wakes a workflow: an event of the log, or one of its own timers; `now` is the Clock's reading. */
export type WorkflowInput = { kind: 'event'; event: RecordedEvent; now: string } | { kind: 'timer'; timer: Timer; now: string };

/** What a workflow wants done: commands for the CommandBus, in order, then timers to schedule. */
export interface Reaction {
  commands: ICommand[];
  timers: NewTimer[];
}

export const NO_REACTION: Reaction = { commands: [], timers: [] };

/** Read-only access to aggregate state: the only I/O a workflow's `load` may do. */
export interface StateReader {
  load<Event extends DomainEvent, State>(streamId: string, decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>): Promise<{ state: State }>;
}

/**
 * A process manager as data and a pure function (as emmett's workflows): `react(input, state)` decides
 * which commands to send and which timers to set, holding every retry and numbering rule. The runner
 * does the I/O: it loads the state, sends the commands through the CommandBus and stores the timers
 * (with the checkpoint when an event woke it). Every command it returns must be idempotent, because an
 * event is reprocessed after a crash.
 */
export interface Workflow<State> {
  readonly name: string;
  /** Stream prefixes it reads (checked for duplicates and gaps by revision, like a projection's). */
  readonly streams: StreamPrefixes;
  /** The timer kinds it owns; the runner fires them back into `react`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a workflow owns timers of several payload types
  readonly timers: readonly TimerDefinition<any>[];
  handles(event: RecordedEvent): boolean;
  /**
   * Optional: what an event is about (the key `load` reads by, usually). Events of different keys in one
   * batch are then processed concurrently, events of one key in log order (EventProcessor.partitionOf).
   */
  partitionOf?(event: RecordedEvent): string;
  load(input: WorkflowInput, reader: StateReader): Promise<State>;
  react(input: WorkflowInput, state: State): Reaction;
}

/** Who a workflow's command is from: the system actor, correlated with what woke it. */
export function workflowContext(actor: string, input: WorkflowInput): { actor: string; correlationId: string; causationId: string | null } {
  return input.kind === 'event'
    ? { actor, correlationId: input.event.metadata.correlationId, causationId: input.event.id }
    : { actor, correlationId: input.timer.id, causationId: null };
}
