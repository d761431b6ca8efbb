import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId, ReleaseReason } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The session ended: its reservation is paid to the wallet (completed) or released (failed, expired, cancelled). */
export class SettleReservationMessage extends Command<void> {
  constructor(
    readonly companyId: string,
    readonly sessionId: string,
    readonly outcome: { kind: 'pay'; payoutId: string; walletEmail: string } | { kind: 'release'; reason: ReleaseReason },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(SettleReservationMessage)
export class SettleReservationHandler implements ICommandHandler<SettleReservationMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, sessionId, outcome, context }: SettleReservationMessage): Promise<void> {
    const metadata = commandMetadata(this.clock, context);
    await this.aggregates.handle(
      balanceStreamId(companyId),
      companyBalanceDecider,
      outcome.kind === 'pay'
        ? { type: 'Pay', data: { sessionId, payoutId: outcome.payoutId, walletEmail: outcome.walletEmail }, metadata }
        : { type: 'Release', data: { sessionId, reason: outcome.reason }, metadata },
      context,
      { retries: BALANCE_RETRIES },
    );
  }
}
