import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { PayoutCommand, payoutDecider } from '../domain/payout.decider';
import { payoutStreamId } from '../domain/payout.events';

/** Runs a decider command on one payout's stream, with the Clock's time. */
@Injectable()
export class PayoutStream {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  now(): string {
    return this.clock.now().toISOString();
  }

  async handle(payoutId: string, command: PayoutCommand, context: CommandContext): Promise<void> {
    await this.aggregates.handle(payoutStreamId(payoutId), payoutDecider, command, context);
  }
}
