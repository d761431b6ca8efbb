import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { CommandMetadata } from '../../platform/domain/command';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { PayoutCommand, payoutDecider } from '../domain/payout.decider';
import { payoutStreamId } from '../domain/payout.events';

/** Runs a decider command on one payout's stream, with the Clock's time. */
@Injectable()
export class PayoutStream {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A payout command's metadata: the Clock's time and the caller (commandMetadata, the one place it is made). */
  metadata(context: CommandContext): CommandMetadata {
    return commandMetadata(this.clock, context);
  }

  async handle(payoutId: string, command: PayoutCommand, context: CommandContext): Promise<void> {
    await this.aggregates.handle(payoutStreamId(payoutId), payoutDecider, command, context);
  }
}
