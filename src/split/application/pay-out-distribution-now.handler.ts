import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/app-config';
import { CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { APP_CONFIG } from '../../platform/platform.tokens';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { assertRowCanPayOutNow } from '../domain/split-settlement';
import { StartRowTransfer } from '../domain/split.commands';
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
    private readonly split: SplitStream,
    private readonly coveredFees: SmeCoveredFees,
    private readonly queries: SplitQueries,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ smeCompanyId, splitId, distributionId, context }: PayOutDistributionNowCommand): Promise<SplitView> {
    // Another company's Split is a 404 before anything about its state shows (the decider does not know the caller).
    assertRowCanPayOutNow((await this.split.load(splitId)).state, distributionId, smeCompanyId);
    const command: StartRowTransfer = {
      type: 'StartRowTransfer',
      data: { splitId, distributionId, instant: true, onDemand: true, earlyPayoutFeeBps: this.config.earlyPayoutFeeBps },
      metadata: this.split.metadata(context),
    };
    const result = await this.split.handle(command, context, {
      retries: RACE_RETRIES,
      beforeAppend: (decision) => this.coveredFees.setAsideFor(decision.state, decision.events, context),
    });
    await this.readYourWrites.after(result);
    return this.queries.get(splitId, smeCompanyId);
  }
}
