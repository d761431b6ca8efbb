import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { timeOrderedUuid } from '../../platform/ids/ids';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { balanceStreamId } from '../domain/payout-embed.events';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export interface TopUpResult {
  topUpId: string;
  currency: string;
  amountCents: string;
}

/** Sandbox: money arrives in the company's balance (a real deposit rail would send the same command). */
export class TopUpBalanceMessage extends Command<TopUpResult> {
  constructor(
    readonly companyId: string,
    readonly currency: string,
    readonly amountCents: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(TopUpBalanceMessage)
export class TopUpBalanceHandler implements ICommandHandler<TopUpBalanceMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, currency, amountCents, context }: TopUpBalanceMessage): Promise<TopUpResult> {
    const metadata = commandMetadata(this.clock, context);
    const now = new Date(metadata.now);
    const topUpId = `top_${timeOrderedUuid(now.getTime()).replace(/-/g, '')}`;
    const result = await this.aggregates.handle(
      balanceStreamId(companyId),
      companyBalanceDecider,
      { type: 'TopUp', data: { companyId, topUpId, currency, amountCents }, metadata },
      context,
      { retries: BALANCE_RETRIES },
    );
    await this.readYourWrites.after(result);
    return { topUpId, currency, amountCents };
  }
}
