import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { twoPersonThresholdOf } from '../../parties';
import { needsSecondPerson } from '../domain/split-second-person';
import { SplitCommand } from '../domain/split.commands';
import { splitDecider } from '../domain/split.decider';
import { splitStreamId } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';

/** The SME's own call: release a HELD margin now, or elect instant release while PENDING (409 otherwise). */
export class SettleMarginCommand extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly context: CommandContext,
    /** Issue 30: a second member confirms a margin release that waits for one (POST .../settle-margin/confirm). */
    readonly confirming = false,
  ) {
    super();
  }
}

@CommandHandler(SettleMarginCommand)
export class SettleMarginHandler implements ICommandHandler<SettleMarginCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  async execute({ smeCompanyId, splitId, context, confirming }: SettleMarginCommand): Promise<SplitView> {
    const now = this.clock.now().toISOString();
    const settle: SplitCommand = { type: 'SettleMargin', data: { splitId, smeCompanyId, actor: context.actor, now } };
    // Issue 30: above the SME's own two-person threshold the release waits for a second member (split-second-person.ts);
    // the second member's confirmation and the release are one decision.
    const threshold = confirming ? null : await twoPersonThresholdOf(this.documents, smeCompanyId);
    const { state } = threshold === null ? { state: null } : await this.aggregates.load(splitStreamId(splitId), splitDecider);
    const commands: SplitCommand[] =
      state && needsSecondPerson(state, 'settle_margin', null, threshold)
        ? [
            {
              type: 'RequestSecondPerson',
              data: { splitId, smeCompanyId, action: 'settle_margin', distributionId: null, aboveAmountCents: threshold!, requestedBy: context.actor, now },
            },
          ]
        : confirming
          ? [{ type: 'ConfirmSecondPerson', data: { splitId, smeCompanyId, action: 'settle_margin', distributionId: null, by: context.actor, now } }, settle]
          : [settle];
    const result = await this.aggregates.handleAll(splitStreamId(splitId), splitDecider, commands, context);
    await this.readYourWrites.after(result);
    if (result.events.length === 0) await this.readYourWrites.afterStream(splitStreamId(splitId));
    return this.queries.get(splitId, smeCompanyId);
  }
}
