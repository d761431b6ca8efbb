import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { MAX_WRONG_CODES, payoutEmbedSessionDecider } from '../domain/payout-embed-session.decider';
import { PayoutEmbedClaimLockedError, PayoutEmbedCodeInvalidError } from '../domain/payout-embed.errors';
import { sessionStreamId } from '../domain/payout-embed.events';
import { PayoutEmbedQueries } from './payout-embed.queries';
import { PayoutEmbedSecrets } from './payout-embed-secrets';
import { EmbedCommand, embedViewOf, EmbedView } from './embed-view';
import { BALANCE_RETRIES } from './balance-stream';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

export class ClaimPayoutMessage extends EmbedCommand {
  constructor(
    sessionId: string,
    token: string,
    context: CommandContext,
    readonly code: string,
  ) {
    super(sessionId, token, context);
  }
}

/** Step 2: the code. A wrong one is recorded (the fifth in a row locks claims for 15 minutes) and answered 422. */
@CommandHandler(ClaimPayoutMessage)
export class ClaimPayoutHandler implements ICommandHandler<ClaimPayoutMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: PayoutEmbedQueries,
    private readonly secrets: PayoutEmbedSecrets,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, token, context, code }: ClaimPayoutMessage): Promise<EmbedView> {
    await this.queries.stateForToken(sessionId, token);
    const metadata = commandMetadata(this.clock, context);
    const { now } = metadata;
    const result = await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      { type: 'Claim', data: { codeHash: this.secrets.codeHash(sessionId, code) }, metadata },
      context,
      { retries: BALANCE_RETRIES },
    );
    const rejected = result.events.find((e) => e.type === 'payout_embed.session.code_rejected');
    if (rejected) {
      if (rejected.data.lockedUntil !== null) throw new PayoutEmbedClaimLockedError(rejected.data.lockedUntil);
      throw new PayoutEmbedCodeInvalidError(MAX_WRONG_CODES - rejected.data.failedAttempts);
    }
    const session = result.state.session!;
    return embedViewOf({ ...result.state, session }, now, await this.queries.senderName(session.companyId));
  }
}
