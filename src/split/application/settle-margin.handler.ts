import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { twoPersonThresholdOf } from '../../parties';
import { needsSecondPerson } from '../domain/split-second-person';
import { SplitCommand } from '../domain/split.commands';
import { SplitView } from '../projections/split-read-model.projection';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';

/** The SME's own call: release a HELD margin now, or elect instant release while PENDING (409 otherwise). */
export class SettleMarginMessage extends Command<SplitView> {
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

@CommandHandler(SettleMarginMessage)
export class SettleMarginHandler implements ICommandHandler<SettleMarginMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  async execute({ smeCompanyId, splitId, context, confirming }: SettleMarginMessage): Promise<SplitView> {
    const metadata = this.split.metadata(context);
    const settle: SplitCommand = { type: 'SettleMargin', data: { splitId, smeCompanyId }, metadata };
    // Issue 30: above the SME's own two-person threshold the release waits for a second member (split-second-person.ts);
    // the second member's confirmation and the release are one decision.
    const threshold = confirming ? null : await twoPersonThresholdOf(this.documents, smeCompanyId);
    const { state } = threshold === null ? { state: null } : await this.split.load(splitId);
    const action = 'settle_margin' as const;
    const commands: SplitCommand[] =
      state && needsSecondPerson(state, action, null, threshold)
        ? [{ type: 'RequestSecondPerson', data: { splitId, smeCompanyId, action, distributionId: null, aboveAmountCents: threshold! }, metadata }]
        : confirming
          ? [{ type: 'ConfirmSecondPerson', data: { splitId, smeCompanyId, action, distributionId: null }, metadata }, settle]
          : [settle];
    const result = await this.split.handleAll(splitId, commands, context);
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
