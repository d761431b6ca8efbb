import { Decider, DomainEvent, fold } from '../../src/platform/domain/decider';
import { DomainError } from '../../src/platform/domain/domain-error';

/**
 * The one style of decider specs: given events, when a command, then
 * - `then(events)`: exactly these events, or `then((events) => ...)` to assert on a few of their fields;
 * - `thenNothing()`: no event (an idempotent repeat);
 * - `thenFails(code)`: a DomainError with that code; `thenFails(code, (error) => ...)` checks more of it
 *   (kind, message, details).
 */
export function given<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, ...history: E[]) {
  return {
    when(command: C) {
      const run = () => decider.decide(command, fold(decider, history));
      return {
        then(expected: E[] | ((events: E[]) => void)): void {
          const events = run();
          if (typeof expected === 'function') expected(events);
          else expect(events).toEqual(expected);
        },
        thenNothing(): void {
          expect(run()).toEqual([]);
        },
        thenFails(code: string, more?: (error: DomainError) => void): void {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(DomainError);
          expect((caught as DomainError).code).toBe(code);
          more?.(caught as DomainError);
        },
      };
    },
  };
}
