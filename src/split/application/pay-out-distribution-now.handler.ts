import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { ConcurrencyError } from '../../platform/event-store/event-store.port';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { twoPersonThresholdOf } from '../../parties';
import { needsSecondPerson } from '../domain/split-second-person';
import { nextTransferAttempt } from '../domain/row-transfer-schedule';
import { assertRowCanPayOutNow } from '../domain/split-settlement';
import { SplitCommand, StartRowTransfer } from '../domain/split.commands';
import { splitDecider } from '../domain/split.decider';
import { splitStreamId } from '../domain/split.events';
import { SplitView } from '../projections/split-read-model.projection';
import { SmeCoveredFees } from './sme-covered-fees';
import { SplitQueries } from './split-queries';
import { SplitStream } from './split-stream';

/** The SME pays one row out now (instant, early-payout fee applies): the Split must be funded and the row not started. */
export class PayOutDistributionNowCommand extends Command<SplitView> {
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
 */
@CommandHandler(PayOutDistributionNowCommand)
export class PayOutDistributionNowHandler implements ICommandHandler<PayOutDistributionNowCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly split: SplitStream,
    private readonly coveredFees: SmeCoveredFees,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
  ) {}

  async execute({ smeCompanyId, splitId, distributionId, context, confirming }: PayOutDistributionNowCommand): Promise<SplitView> {
    const stream = splitStreamId(splitId);
    // Issue 30: above the SME's own two-person threshold the request waits for a second member (split-second-person.ts).
    const threshold = confirming ? null : await twoPersonThresholdOf(this.documents, smeCompanyId);
    for (let attempt = 0; ; attempt++) {
      const loaded = await this.aggregates.load(stream, splitDecider);
      const { revision } = loaded;
      assertRowCanPayOutNow(loaded.state, distributionId, smeCompanyId);
      if (needsSecondPerson(loaded.state, 'pay_out_now', distributionId, threshold)) return this.askSecondPerson(smeCompanyId, splitId, distributionId, threshold!, context);
      const confirm: SplitCommand[] = confirming
        ? [{ type: 'ConfirmSecondPerson', data: { splitId, smeCompanyId, action: 'pay_out_now', distributionId, by: context.actor, now: this.split.now() } }]
        : [];
      const state = confirm.flatMap((c) => splitDecider.decide(c, loaded.state)).reduce((folded, event) => splitDecider.evolve(folded, event), loaded.state);
      const command: StartRowTransfer = {
        type: 'StartRowTransfer',
        data: {
          splitId,
          distributionId,
          instant: true,
          onDemand: true,
          earlyPayoutFeeBps: this.config.earlyPayoutFeeBps,
          payoutId: nextTransferAttempt(state, splitId, distributionId).payoutId,
          now: this.split.now(),
        },
      };
      await this.coveredFees.setAsideFor(state, splitDecider.decide(command, state), context);
      try {
        const result = await this.aggregates.handleAll(stream, splitDecider, [...confirm, command], context, { expected: revision ?? 'no_stream' });
        await this.readYourWrites.after(result);
        return this.queries.get(splitId, smeCompanyId);
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= RACE_RETRIES) throw error;
      }
    }
  }

  private async askSecondPerson(smeCompanyId: string, splitId: string, distributionId: string, aboveAmountCents: string, context: CommandContext): Promise<SplitView> {
    const result = await this.aggregates.handle(
      splitStreamId(splitId),
      splitDecider,
      { type: 'RequestSecondPerson', data: { splitId, smeCompanyId, action: 'pay_out_now', distributionId, aboveAmountCents, requestedBy: context.actor, now: this.split.now() } },
      context,
    );
    await this.readYourWrites.after(result);
    if (result.events.length === 0) await this.readYourWrites.afterStream(splitStreamId(splitId));
    return this.queries.get(splitId, smeCompanyId);
  }
}
