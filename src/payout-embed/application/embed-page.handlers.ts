import { randomInt } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OUTBOX, type OutboxMessage } from '../../identity';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { newId } from '../../platform/ids/ids';
import { OPERATIONAL_STORE, OperationalStore } from '../../platform/read-store/operational-store.port';
import { MAX_WRONG_CODES, payoutEmbedSessionDecider, SessionState } from '../domain/payout-embed-session.decider';
import { PayoutEmbedClaimLockedError, PayoutEmbedCodeInvalidError } from '../domain/payout-embed.errors';
import { sessionStreamId, SessionStatus } from '../domain/payout-embed.events';
import { PayoutEmbedQueries } from './payout-embed.queries';
import { PayoutEmbedSecrets } from './payout-embed-secrets';

/** What the embed page shows (GET /api/embed/payouts/:id); never the recipient's full email or any secret. */
export interface EmbedView {
  id: string;
  status: SessionStatus;
  /** claimed and the payout is on its way: the page waits for completed or failed. */
  payoutInProgress: boolean;
  amountCents: string;
  currency: string;
  recipientName: string | null;
  /** The recipient's email with most of the local part hidden (`a***@example.com`). */
  recipientEmailHint: string;
  description: string | null;
  expiresAt: string;
  codeSent: boolean;
  codeExpiresAt: string | null;
  lockedUntil: string | null;
  walletEmail: string | null;
  failureReason: string | null;
  allowedOrigins: string[];
  returnUrl: string | null;
}

export function embedViewOf(state: SessionState & { session: NonNullable<SessionState['session']> }, now: string): EmbedView {
  const s = state.session;
  const [local = '', domain = ''] = s.recipientEmail.split('@');
  return {
    id: s.sessionId,
    status: s.status,
    payoutInProgress: s.status === 'claimed' && state.payoutStarted,
    amountCents: s.amountCents,
    currency: s.currency,
    recipientName: s.recipientName,
    recipientEmailHint: `${local.slice(0, 1)}***@${domain}`,
    description: s.description,
    expiresAt: s.expiresAt,
    codeSent: state.codeHash !== null && state.codeExpiresAt !== null && now < state.codeExpiresAt,
    codeExpiresAt: state.codeExpiresAt,
    lockedUntil: state.lockedUntil !== null && now < state.lockedUntil ? state.lockedUntil : null,
    walletEmail: state.walletEmail,
    failureReason: state.failureReason,
    allowedOrigins: s.allowedOrigins,
    returnUrl: s.returnUrl,
  };
}

/** Every page call names the session and carries its embed token. */
abstract class EmbedCommand extends Command<EmbedView> {
  constructor(
    readonly sessionId: string,
    readonly token: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class SendClaimCodeCommand extends EmbedCommand {}

export class ClaimPayoutCommand extends EmbedCommand {
  constructor(
    sessionId: string,
    token: string,
    context: CommandContext,
    readonly code: string,
  ) {
    super(sessionId, token, context);
  }
}

export class NamePayoutWalletCommand extends EmbedCommand {
  constructor(
    sessionId: string,
    token: string,
    context: CommandContext,
    readonly walletEmail: string,
  ) {
    super(sessionId, token, context);
  }
}

/**
 * Step 1: a fresh 6-digit code to the recipient's email (the sandbox outbox), valid 10 minutes; only
 * its keyed hash is recorded. The message is written after the event, so a refused request sends nothing.
 */
@CommandHandler(SendClaimCodeCommand)
export class SendClaimCodeHandler implements ICommandHandler<SendClaimCodeCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: PayoutEmbedQueries,
    private readonly secrets: PayoutEmbedSecrets,
    @Inject(OPERATIONAL_STORE) private readonly store: OperationalStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, token, context }: SendClaimCodeCommand): Promise<EmbedView> {
    const { session } = await this.queries.stateForToken(sessionId, token);
    const now = this.clock.now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const result = await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      { type: 'SendCode', data: { codeHash: this.secrets.codeHash(sessionId, code), now: now.toISOString() } },
      context,
    );
    const amount = new Intl.NumberFormat('en', { style: 'currency', currency: session.currency }).format(minorToMajor(session.amountCents, session.currency));
    const message: OutboxMessage = {
      id: newId('evt', now.getTime()),
      to: session.recipientEmail,
      subject: `Your code to claim ${amount}`,
      body: `Your Paysplit payout code is ${code}. It works for 10 minutes. If you did not ask for it, ignore this email.`,
      link: '',
      sentAt: now.toISOString(),
    };
    await this.store.putOperational(OUTBOX, message);
    return embedViewOf({ ...result.state, session: result.state.session! }, now.toISOString());
  }
}

/** Step 2: the code. A wrong one is recorded (the fifth in a row locks claims for 15 minutes) and answered 422. */
@CommandHandler(ClaimPayoutCommand)
export class ClaimPayoutHandler implements ICommandHandler<ClaimPayoutCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: PayoutEmbedQueries,
    private readonly secrets: PayoutEmbedSecrets,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, token, context, code }: ClaimPayoutCommand): Promise<EmbedView> {
    await this.queries.stateForToken(sessionId, token);
    const now = this.clock.now().toISOString();
    const result = await this.aggregates.handle(
      sessionStreamId(sessionId),
      payoutEmbedSessionDecider,
      { type: 'Claim', data: { codeHash: this.secrets.codeHash(sessionId, code), now } },
      context,
      { retries: 25 },
    );
    const rejected = result.events.find((e) => e.type === 'payout_embed.session.code_rejected');
    if (rejected) {
      if (rejected.data.lockedUntil !== null) throw new PayoutEmbedClaimLockedError(rejected.data.lockedUntil);
      throw new PayoutEmbedCodeInvalidError(MAX_WRONG_CODES - rejected.data.failedAttempts);
    }
    return embedViewOf({ ...result.state, session: result.state.session! }, now);
  }
}

/** Step 3: the wallet. The payout starts; the lifecycle workflow takes it to completed or failed. */
@CommandHandler(NamePayoutWalletCommand)
export class NamePayoutWalletHandler implements ICommandHandler<NamePayoutWalletCommand> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly queries: PayoutEmbedQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sessionId, token, context, walletEmail }: NamePayoutWalletCommand): Promise<EmbedView> {
    await this.queries.stateForToken(sessionId, token);
    const now = this.clock.now().toISOString();
    const result = await this.aggregates.handle(sessionStreamId(sessionId), payoutEmbedSessionDecider, { type: 'NameWallet', data: { walletEmail, now } }, context);
    return embedViewOf({ ...result.state, session: result.state.session! }, now);
  }
}

/** Minor units to a number for display only (never for arithmetic). */
export function minorToMajor(amountCents: string, currency: string): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return Number(amountCents) / 10 ** digits;
}
