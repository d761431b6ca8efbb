import { NewTimer, Timer } from '../read-store/read-store.port';

/** A timer payload: plain data that survives a round trip through the read store. */
export type TimerPayload = Record<string, string | number | boolean | null>;

/**
 * One kind of durable timer: its name, its payload type and how its id is made. The id is
 * deterministic (kind plus the payload's key parts), so scheduling the same timer twice changes nothing.
 */
export interface TimerDefinition<P extends TimerPayload> {
  readonly kind: string;
  id: (payload: P) => string;
  /** The timer row that fires `payload` at `dueAt` (ISO-8601, compared with the domain Clock). */
  at: (dueAt: string, payload: P) => NewTimer;
  /** The payload of a claimed timer of this kind. */
  payloadOf: (timer: Timer) => P;
  /** How the kind shares the timer worker (its pool size). */
  readonly options: { concurrency?: number };
}

export function defineTimer<P extends TimerPayload>(kind: string, key: (payload: P) => readonly (string | number)[], options: { concurrency?: number } = {}): TimerDefinition<P> {
  const id = (payload: P) => [kind, ...key(payload)].join(':');
  return {
    kind,
    id,
    options: { concurrency: options.concurrency },
    at: (dueAt, payload) => ({ id: id(payload), kind, dueAt, payload: { ...payload } }),
    payloadOf: (timer) => {
      if (timer.kind !== kind) throw new Error(`timer ${timer.id} is a ${timer.kind}, not a ${kind}`);
      return timer.payload as P;
    },
  };
}
