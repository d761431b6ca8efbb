import { Decider, DomainEvent, fold } from '../../src/platform/domain/decider';
import { DomainError } from '../../src/platform/domain/domain-error';

/** Given events, when a command, then events or a DomainError code. */
export function given<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, ...history: E[]) {
  return {
    when(command: C) {
      const run = () => decider.decide(command, fold(decider, history));
      return {
        then(expected: E[]) {
          expect(run()).toEqual(expected);
        },
        thenFails(code: string) {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(DomainError);
          expect((caught as DomainError).code).toBe(code);
        },
      };
    },
  };
}
