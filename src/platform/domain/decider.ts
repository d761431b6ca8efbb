/** A domain event as deciders produce it: a type tag and its data (metadata is added when appending). */
export interface DomainEvent<T extends string = string, D extends object = object> {
  type: T;
  data: D;
}

/**
 * An event-sourced aggregate's rules as pure functions (after event-driven-io/emmett):
 * `decide` turns a command and the current state into new events or throws a DomainError;
 * `evolve` folds one event into the state.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  initialState(): State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}

export function fold<Event extends DomainEvent, State>(decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>, events: Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}

/** Exhaustiveness check at the end of a switch over a discriminated union. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
