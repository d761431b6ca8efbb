import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { splitDecider, splitExists, splitStreamId } from '../../split';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId, SplitReturnCredited } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

type SplitReturn = Pick<SplitReturnCredited['data'], 'splitId' | 'rosterEntryId' | 'returnId' | 'kind' | 'amountCents'>;

/** Split money came back to the SME (a row reversal or a take-back): it becomes reservable on the SME's balance stream, once per return. */
export class CreditSplitReturnMessage extends Command<void> {
  constructor(
    readonly splitReturn: SplitReturn,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreditSplitReturnMessage)
export class CreditSplitReturnHandler implements ICommandHandler<CreditSplitReturnMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ splitReturn, context }: CreditSplitReturnMessage): Promise<void> {
    // The Split names the SME and the currency (the reversal and take-back events do not carry them).
    const { state } = await this.aggregates.load(splitStreamId(splitReturn.splitId), splitDecider);
    if (!splitExists(state)) throw new Error(`Split ${splitReturn.splitId} returned money but has no stream`);
    await this.aggregates.handle(
      balanceStreamId(state.smeCompanyId),
      companyBalanceDecider,
      { type: 'CreditSplitReturn', data: { ...splitReturn, companyId: state.smeCompanyId, currency: state.currency }, metadata: commandMetadata(this.clock, context) },
      context,
      { retries: BALANCE_RETRIES },
    );
  }
}
