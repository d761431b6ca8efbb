import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext, Decided, HandleOptions } from '../../platform/event-sourcing/aggregate-repository';
import { CommandMetadata } from '../../platform/domain/command';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { SplitCommand } from '../domain/split.commands';
import { splitDecider } from '../domain/split.decider';
import { SplitEvent, splitStreamId } from '../domain/split.events';
import { SplitState } from '../domain/split.state';

/**
 * Runs a decider command on one Split's stream, with the Clock's time: every Split command handler goes
 * through it (none calls AggregateRepository itself). A handler gathers the decider's inputs and hands the
 * command here; what must happen before the append (fees set aside, contractors provisioned) is a
 * `beforeAppend` of the decision, never a dry run of the decider.
 */
@Injectable()
export class SplitStream {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A Split command's metadata: the Clock's time and the caller (commandMetadata, the one place it is made). */
  metadata(context: Pick<CommandContext, 'actor'>): CommandMetadata {
    return commandMetadata(this.clock, context);
  }

  load(splitId: string): Promise<{ state: SplitState }> {
    return this.aggregates.load(splitStreamId(splitId), splitDecider);
  }

  handle(command: SplitCommand, context: CommandContext, options: HandleOptions<SplitEvent, SplitState> = {}): Promise<Decided<SplitEvent, SplitState>> {
    return this.aggregates.handle(splitStreamId(command.data.splitId), splitDecider, command, context, options);
  }

  /** Starts the Split's stream without reading it first (AggregateRepository.create): a ConcurrencyError means it exists. */
  create(command: SplitCommand, context: CommandContext, options: Pick<HandleOptions<SplitEvent, SplitState>, 'beforeAppend'> = {}): Promise<Decided<SplitEvent, SplitState>> {
    return this.aggregates.create(splitStreamId(command.data.splitId), splitDecider, command, context, options);
  }

  /** Commands on one Split decided in order and appended together (AggregateRepository.handleAll). */
  handleAll(splitId: string, commands: SplitCommand[], context: CommandContext, options: HandleOptions<SplitEvent, SplitState> = {}): Promise<Decided<SplitEvent, SplitState>> {
    return this.aggregates.handleAll(splitStreamId(splitId), splitDecider, commands, context, options);
  }
}
