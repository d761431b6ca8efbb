import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** A Split's margin was released: what reached the SME's balance becomes reservable (once per Split). */
export class CreditSplitMarginMessage extends Command<void> {
  constructor(
    readonly companyId: string,
    readonly splitId: string,
    readonly currency: string,
    readonly amountCents: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreditSplitMarginMessage)
export class CreditSplitMarginHandler implements ICommandHandler<CreditSplitMarginMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, splitId, currency, amountCents, context }: CreditSplitMarginMessage): Promise<void> {
    await this.aggregates.handle(
      balanceStreamId(companyId),
      companyBalanceDecider,
      { type: 'CreditSplitMargin', data: { companyId, splitId, currency, amountCents }, metadata: commandMetadata(this.clock, context) },
      context,
      { retries: BALANCE_RETRIES },
    );
  }
}
