import { DiscoveryService } from '@nestjs/core';
import { Timer } from './read-store/read-store.port';
import { TimerDefinition, TimerPayload } from './timers/timer-definition';

/**
 * Marks a provider that is a projection or a process manager (a `Subscriber`): the platform collects
 * every such provider of the module graph and runs it on the global log.
 */
export const LogSubscriber = DiscoveryService.createDecorator<void>();

/** Marks a provider that fires durable timers: it implements `FiresTimers`. */
export const TimerHandlers = DiscoveryService.createDecorator<void>();

export interface TimerRegistration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one registry holds timers of every payload type
  definition: TimerDefinition<any>;
  /** Throwing means "try again later"; must be idempotent. */
  fire: (timer: Timer) => Promise<void>;
}

export interface FiresTimers {
  readonly timerRegistrations: readonly TimerRegistration[];
}

export function onTimer<P extends TimerPayload>(definition: TimerDefinition<P>, fire: (payload: P, timer: Timer) => Promise<void>): TimerRegistration {
  return { definition, fire: (timer) => fire(definition.payloadOf(timer), timer) };
}

/**
 * Marks a provider that runs its own queue of due work (webhook deliveries): it implements `DueWork`.
 * The platform starts and stops it with the other workers, and the sandbox clock steps through its due
 * times as it does through timers.
 */
export const DueWorkers = DiscoveryService.createDecorator<void>();

export interface DueWork {
  /** For logs and errors. */
  readonly name: string;
  /** Starts the background loop (only where ROLE runs workers). */
  start(): void;
  /** Stops claiming and waits for the work under way (the platform calls it once, at shutdown, after the HTTP app closed). */
  stop(): Promise<void>;
  /**
   * Closes its store, once the subscribers have stopped too: a subscriber may still write to it until then
   * (the webhook dispatcher adds deliveries), and met a closed store at every shutdown under load.
   */
  close(): Promise<void>;
  /** Runs everything due at the Clock's now and returns how many items ran (the sandbox clock's step). */
  runDue(): Promise<number>;
  /** Earliest due time (ISO) of work not done yet, claimed or not; null when there is none. */
  nextDueAt(): Promise<string | null>;
}
