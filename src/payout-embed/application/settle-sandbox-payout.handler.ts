import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { AppLogger } from '../../platform/logging/app-logger';
import { LOGGER } from '../../platform/platform.tokens';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { payoutEmbedSessionDecider, sandboxWalletOutcome } from '../domain/payout-embed-session.decider';
import { PayoutEmbedReservationNotHeldError } from '../domain/payout-embed.errors';
import { balanceStreamId, sessionStreamId } from '../domain/payout-embed.events';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';

/** The payout started: the sandbox rail answers at once (a wallet with `+fail` in its local part refuses). */
export class SettleSandboxPayoutMessage extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(SettleSandboxPayoutMessage)
export class SettleSandboxPayoutHandler implements ICommandHandler<SettleSandboxPayoutMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  async execute({ sessionId, context }: SettleSandboxPayoutMessage): Promise<void> {
    const { state } = await this.aggregates.load(sessionStreamId(sessionId), payoutEmbedSessionDecider);
    if (!state.walletEmail || state.session?.status !== 'claimed') return;
    const metadata = commandMetadata(this.clock, context);
    // Nothing is sent unless its reservation is still held (issue 23): a payout on a released reservation
    // would pay without a debit. Refused loudly: logged at error level, and the session fails with the code.
    const reservation = (await this.aggregates.load(balanceStreamId(state.session.companyId), companyBalanceDecider)).state.reservations[sessionId];
    if (reservation?.status !== 'reserved') {
      const refused = new PayoutEmbedReservationNotHeldError(sessionId, reservation?.status ?? 'unknown');
      this.logger.error({ err: refused, code: refused.code, sessionId, companyId: state.session.companyId }, 'Payout Embed payout refused: its reservation is not held');
      await this.aggregates.handle(
        sessionStreamId(sessionId),
        payoutEmbedSessionDecider,
        { type: 'FailPayout', data: { failureReason: `${refused.code}: ${refused.message}` }, metadata },
        context,
      );
      return;
    }
    const outcome = sandboxWalletOutcome(state.walletEmail);
    await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      outcome.ok ? { type: 'CompletePayout', data: {}, metadata } : { type: 'FailPayout', data: { failureReason: outcome.reason }, metadata },
      context,
    );
  }
}
