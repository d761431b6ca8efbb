import { RecordedEvent } from '../../src/platform/event-store/event-store.port';
import { NewTimer, Timer } from '../../src/platform/read-store/read-store.port';
import { Reaction, Workflow, WorkflowInput } from '../../src/platform/workflows/workflow';

export const NOW = '2026-03-01T12:00:00.000Z';

/** An event as the log hands it to a workflow. */
export function recorded(type: string, data: object, streamId = 'stream-1', id = `evt-${type}`): RecordedEvent {
  return {
    id,
    type,
    data: data as Record<string, unknown>,
    streamId,
    revision: 0,
    position: 1,
    metadata: { correlationId: 'corr-1', causationId: null, actor: 'test', occurredAt: NOW },
  } as RecordedEvent;
}

/** A claimed timer as the timer worker hands it to a workflow. */
export function firing(timer: NewTimer): Timer {
  return { ...timer, attempts: 0 };
}

/** Given the state `load` would return, when an event or a timer, then commands and timers. */
export function givenWorkflow<S>(workflow: Workflow<S>, state: S) {
  const run = (input: WorkflowInput): Reaction => workflow.react(input, state);
  const inputOf = (what: RecordedEvent | Timer): WorkflowInput =>
    'kind' in what && 'dueAt' in what ? { kind: 'timer', timer: what, now: NOW } : { kind: 'event', event: what as RecordedEvent, now: NOW };
  return {
    when(what: RecordedEvent | Timer) {
      const reaction = () => run(inputOf(what));
      return {
        then(expected: Partial<Reaction>) {
          expect(reaction()).toEqual({ commands: expected.commands ?? [], timers: expected.timers ?? [] });
        },
        thenNothing() {
          expect(reaction()).toEqual({ commands: [], timers: [] });
        },
      };
    },
  };
}
