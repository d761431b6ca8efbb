import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EmailNotVerifiedError, hasVerifiedEmail } from '../../identity';
import { withdrawableByAccount } from '../../ledger';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { newId } from '../../platform/ids/ids';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { contractorWithdrawalsDecider } from '../domain/contractor-withdrawals.decider';
import { contractorWithdrawalsStreamId } from '../domain/contractor-withdrawals.events';
import { contractorAccountsOf } from './contractor-accounts';

export interface WithdrawalView {
  id: string;
  amountCents: string;
  currency: string;
  status: 'requested' | 'paid' | 'failed';
  requestedAt: string;
}

export class RequestWithdrawalMessage extends Command<WithdrawalView> {
  constructor(
    readonly userId: string,
    readonly amountCents: string,
    readonly currency: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Concurrent withdrawals of one person decide on its stream; each lost race reloads and decides again. */
const RETRIES = 10;

/**
 * POST /api/commerce/me/withdrawals: decided on the person's withdrawals stream against what its
 * contractor accounts earned (the ledger) minus its earlier withdrawals (the stream). The payout follows
 * from the event (ContractorWithdrawalsWorkflow); the ledger posts it from the payout's events.
 */
@CommandHandler(RequestWithdrawalMessage)
export class RequestWithdrawalHandler implements ICommandHandler<RequestWithdrawalMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, amountCents, currency, context }: RequestWithdrawalMessage): Promise<WithdrawalView> {
    // An unverified sign-up never had a roster row attached, but nothing may leave to it either (issue 24).
    if (!(await hasVerifiedEmail(this.documents, userId))) throw new EmailNotVerifiedError();
    const metadata = commandMetadata(this.clock, context);
    const payoutId = newId('po', Date.parse(metadata.now));
    const { contractors, wallet } = await contractorAccountsOf(this.documents, userId);
    const earned = (await withdrawableByAccount(this.documents, contractors))[currency] ?? {};
    await this.aggregates.handle(
      contractorWithdrawalsStreamId(userId),
      contractorWithdrawalsDecider,
      { type: 'RequestWithdrawal', data: { userId, payoutId, currency, amountCents, wallet, earned }, metadata },
      context,
      { retries: RETRIES },
    );
    return { id: payoutId, amountCents, currency, status: 'requested', requestedAt: metadata.now };
  }
}
