import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { contractorWithdrawalsDecider } from '../domain/contractor-withdrawals.decider';
import { contractorWithdrawalsStreamId } from '../domain/contractor-withdrawals.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The rail answered a withdrawal's payout: record it paid, or failed (its amount is withdrawable again). Idempotent. */
export class SettleWithdrawalMessage {
  constructor(
    readonly userId: string,
    readonly payoutId: string,
    readonly outcome: { paid: true } | { paid: false; reason: string },
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(SettleWithdrawalMessage)
export class SettleWithdrawalHandler implements ICommandHandler<SettleWithdrawalMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, payoutId, outcome, context }: SettleWithdrawalMessage): Promise<void> {
    await this.aggregates.handle(
      contractorWithdrawalsStreamId(userId),
      contractorWithdrawalsDecider,
      { type: 'SettleWithdrawal', data: { payoutId, outcome }, metadata: commandMetadata(this.clock, context) },
      context,
    );
  }
}
