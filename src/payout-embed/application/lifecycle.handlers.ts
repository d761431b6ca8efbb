import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { companyBalanceDecider } from '../domain/company-balance.decider';
import { payoutEmbedSessionDecider, sandboxWalletOutcome } from '../domain/payout-embed-session.decider';
import { balanceStreamId, ReleaseReason, sessionStreamId } from '../domain/payout-embed.events';

/** The expiry timer fired: created or claimed sessions without a payout expire (the decider checks the time). */
export class ExpirePayoutEmbedSessionCommand extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** The payout started: the sandbox rail answers at once (a wallet with `+fail` in its local part refuses). */
export class SettleSandboxPayoutCommand extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** The session ended: its reservation is paid to the wallet (completed) or released (failed, expired, cancelled). */
export class SettleReservationCommand extends Command<void> {
  constructor(
    readonly companyId: string,
    readonly sessionId: string,
    readonly outcome: { kind: 'pay'; payoutId: string; walletEmail: string } | { kind: 'release'; reason: ReleaseReason },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ExpirePayoutEmbedSessionCommand)
export class ExpirePayoutEmbedSessionHandler implements ICommandHandler<ExpirePayoutEmbedSessionCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, context }: ExpirePayoutEmbedSessionCommand): Promise<void> {
    await this.aggregates.handle(sessionStreamId(sessionId), payoutEmbedSessionDecider, { type: 'Expire', data: { now: this.clock.now().toISOString() } }, context);
  }
}

@CommandHandler(SettleSandboxPayoutCommand)
export class SettleSandboxPayoutHandler implements ICommandHandler<SettleSandboxPayoutCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, context }: SettleSandboxPayoutCommand): Promise<void> {
    const { state } = await this.aggregates.load(sessionStreamId(sessionId), payoutEmbedSessionDecider);
    if (!state.walletEmail || state.session?.status !== 'claimed') return;
    const outcome = sandboxWalletOutcome(state.walletEmail);
    const now = this.clock.now().toISOString();
    await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      outcome.ok ? { type: 'CompletePayout', data: { now } } : { type: 'FailPayout', data: { failureReason: outcome.reason, now } },
      context,
    );
  }
}

@CommandHandler(SettleReservationCommand)
export class SettleReservationHandler implements ICommandHandler<SettleReservationCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ companyId, sessionId, outcome, context }: SettleReservationCommand): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.aggregates.handle(
      balanceStreamId(companyId),
      companyBalanceDecider,
      outcome.kind === 'pay'
        ? { type: 'Pay', data: { sessionId, payoutId: outcome.payoutId, walletEmail: outcome.walletEmail, now } }
        : { type: 'Release', data: { sessionId, reason: outcome.reason, now } },
      context,
      { retries: 25 },
    );
  }
}
