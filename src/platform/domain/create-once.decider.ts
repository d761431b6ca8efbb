import { CommandMetadata } from './command';
import { Decider, DomainEvent } from './decider';

export type CreateOnceState<E extends DomainEvent> = { created: E | null };

/**
 * Deciders of things that are created once and never change (business profile, creator, sub-vendor,
 * payment link): creating again appends nothing and the state tells the caller what already exists.
 */
/** Create `event` once, decided at `metadata.now` (the event's own time, e.g. its `createdAt`, is that reading). */
export type CreateOnce<E extends DomainEvent> = { type: 'Create'; event: E; metadata: CommandMetadata };

export function createOnceDecider<E extends DomainEvent>(): Decider<CreateOnce<E>, E, CreateOnceState<E>> {
  return {
    initialState: () => ({ created: null }),
    decide: (command, state) => (state.created ? [] : [command.event]),
    evolve: (state, event) => (state.created ? state : { created: event }),
  };
}
