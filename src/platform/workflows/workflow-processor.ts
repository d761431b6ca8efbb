import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../clock/clock';
import { RecordedEvent } from '../event-store/event-store.port';
import { AggregateRepository } from '../event-sourcing/aggregate-repository';
import { EventProcessor, ProcessorEffects } from '../projections/projection';
import { Timer } from '../read-store/read-store.port';
import { FiresTimers, TimerRegistration } from '../background.decorators';
import { TimerWorker } from '../timers/timer-worker';
import { Reaction, Workflow, WorkflowInput } from './workflow';

/** What every workflow runner needs, injected once. */
@Injectable()
export class WorkflowRuntime {
  constructor(
    readonly aggregates: AggregateRepository,
    readonly commands: CommandBus,
    readonly timers: TimerWorker,
    @Inject(CLOCK) readonly clock: Clock,
  ) {}
}

/**
 * Runs one workflow: as a process manager on the log (its timers are staged in the commit that moves
 * its checkpoint) and as the handler of its own timers (their follow-up timers are scheduled once its
 * commands have run). A module declares `class XProcessManager extends WorkflowProcessor<S>` with
 * `@LogSubscriber() @TimerHandlers()` so the platform collects it.
 */
export abstract class WorkflowProcessor<State> implements EventProcessor, FiresTimers {
  readonly name: string;
  readonly streams: readonly string[];
  readonly timerRegistrations: readonly TimerRegistration[];

  protected constructor(
    private readonly workflow: Workflow<State>,
    private readonly runtime: WorkflowRuntime,
  ) {
    this.name = workflow.name;
    this.streams = workflow.streams;
    this.timerRegistrations = workflow.timers.map((definition) => ({ definition, fire: (timer: Timer) => this.fire(timer) }));
    if (workflow.partitionOf) this.partitionOf = (event) => workflow.partitionOf!(event);
  }

  handles(event: RecordedEvent): boolean {
    return this.workflow.handles(event);
  }

  readonly partitionOf?: (event: RecordedEvent) => string;

  async process(event: RecordedEvent, effects: ProcessorEffects): Promise<void> {
    const reaction = await this.run({ kind: 'event', event, now: this.now() });
    for (const timer of reaction.timers) effects.scheduleTimer(timer);
  }

  private async fire(timer: Timer): Promise<void> {
    const reaction = await this.run({ kind: 'timer', timer, now: this.now() });
    for (const next of reaction.timers) await this.runtime.timers.schedule(next);
  }

  private async run(input: WorkflowInput): Promise<Reaction> {
    const state = await this.workflow.load(input, this.runtime.aggregates);
    const reaction = this.workflow.react(input, state);
    for (const command of reaction.commands) await this.runtime.commands.execute(command);
    return reaction;
  }

  private now(): string {
    return this.runtime.clock.now().toISOString();
  }
}
