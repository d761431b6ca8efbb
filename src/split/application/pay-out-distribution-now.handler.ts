import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { twoPersonThresholdOf } from '../../parties';
import { needsSecondPerson } from '../domain/split-second-person';
import { assertRowCanPayOutNow } from '../domain/split-settlement';
import { SplitCommand } from '../domain/split.commands';
import { SplitView } from '../projections/split-read-model.projection';
import { SmeCoveredFees } from './sme-covered-fees';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';

/** The SME pays one row out now (instant, early-payout fee applies): the Split must be funded and the row not started. */
export class PayOutDistributionNowMessage extends Command<SplitView> {
  constructor(
    readonly smeCompanyId: string,
    readonly splitId: string,
    readonly distributionId: string,
    readonly context: CommandContext,
    /** Issue 30: a second member confirms a pay-out-now that waits for one (POST .../payout/confirm). */
    readonly confirming = false,
  ) {
    super();
  }
}

/** The settlement workflow appends to a funded Split's stream too; a payout that lost the race decides again. */
const RACE_RETRIES = 10;

/**
 * When the SME covers the row's fee, what the held margin cannot pay of it is set aside from the SME's
 * balance first (422 SME_FEE_NOT_COVERED, nothing started). The transfer is then appended at exactly the
 * revision that was decided on: a Split that moved meanwhile (another payout, the margin's release) is
 * decided again, so what was set aside always matches what the appended decision needs.
 * Above the SME's own two-person threshold (issue 30) the call records a request instead, and a second
 * member's confirmation and the transfer are one decision (split-second-person.ts).
 */
@CommandHandler(PayOutDistributionNowMessage)
export class PayOutDistributionNowHandler implements ICommandHandler<PayOutDistributionNowMessage> {
  constructor(
    private readonly split: SplitStream,
    private readonly coveredFees: SmeCoveredFees,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  async execute({ smeCompanyId, splitId, distributionId, context, confirming }: PayOutDistributionNowMessage): Promise<SplitView> {
    // Another company's Split is a 404 before anything about its state shows (the decider does not know the caller).
    const { state } = await this.split.load(splitId);
    assertRowCanPayOutNow(state, distributionId, smeCompanyId);
    const metadata = this.split.metadata(context);
    const threshold = confirming ? null : await twoPersonThresholdOf(this.documents, smeCompanyId);
    if (needsSecondPerson(state, 'pay_out_now', distributionId, threshold)) {
      const data = { splitId, smeCompanyId, action: 'pay_out_now' as const, distributionId, aboveAmountCents: threshold! };
      const asked = await this.split.handle({ type: 'RequestSecondPerson', data, metadata }, context);
      await this.readYourWrites.after(asked);
      return this.queries.get(splitId, smeCompanyId);
    }
    const commands: SplitCommand[] = [
      ...(confirming ? [{ type: 'ConfirmSecondPerson' as const, data: { splitId, smeCompanyId, action: 'pay_out_now' as const, distributionId }, metadata }] : []),
      { type: 'StartRowTransfer', data: { splitId, distributionId, instant: true, onDemand: true, earlyPayoutFeeBps: this.config.earlyPayoutFeeBps }, metadata },
    ];
    const result = await this.split.handleAll(splitId, commands, context, {
      retries: RACE_RETRIES,
      beforeAppend: (decision) => this.coveredFees.setAsideFor(decision.state, decision.events, context),
    });
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
