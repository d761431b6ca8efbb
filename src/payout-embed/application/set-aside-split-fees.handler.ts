import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { SetAsideSmeCoveredFeesMessage } from '../../split';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/**
 * A Split decision is about to record fees its SME covers beyond the margin: set them aside on the SME's
 * balance stream, where Payout Embed reservations are decided too, so neither can spend what the other
 * holds (422 SME_FEE_NOT_COVERED when the available balance is short; nothing appended).
 */
@CommandHandler(SetAsideSmeCoveredFeesMessage)
export class SetAsideSplitFeesHandler implements ICommandHandler<SetAsideSmeCoveredFeesMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ smeCompanyId, splitId, currency, requiredCents, context }: SetAsideSmeCoveredFeesMessage): Promise<void> {
    await this.aggregates.handle(
      balanceStreamId(smeCompanyId),
      companyBalanceDecider,
      { type: 'SetAsideSplitFees', data: { companyId: smeCompanyId, splitId, currency, requiredCents }, metadata: commandMetadata(this.clock, context) },
      context,
      { retries: BALANCE_RETRIES },
    );
  }
}
