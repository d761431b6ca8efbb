import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext, Decided } from '../../platform/event-sourcing/aggregate-repository';
import { SplitCommand } from '../domain/split.commands';
import { splitDecider } from '../domain/split.decider';
import { SplitEvent, splitStreamId } from '../domain/split.events';
import { SplitState } from '../domain/split.state';

/** Runs a decider command on one Split's stream, with the Clock's time: what every Split command handler does. */
@Injectable()
export class SplitStream {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  now(): string {
    return this.clock.now().toISOString();
  }

  load(splitId: string): Promise<{ state: SplitState }> {
    return this.aggregates.load(splitStreamId(splitId), splitDecider);
  }

  handle(command: SplitCommand, context: CommandContext): Promise<Decided<SplitEvent, SplitState>> {
    return this.aggregates.handle(splitStreamId(command.data.splitId), splitDecider, command, context);
  }

  /** Commands on one Split decided in order and appended together (AggregateRepository.handleAll). */
  handleAll(splitId: string, commands: SplitCommand[], context: CommandContext): Promise<Decided<SplitEvent, SplitState>> {
    return this.aggregates.handleAll(splitStreamId(splitId), splitDecider, commands, context);
  }
}
