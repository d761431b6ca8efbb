import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Outbox, userEmail } from '../../identity';
import { CLOCK, Clock } from '../../platform/clock/clock';
import { newId } from '../../platform/ids/ids';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { AggregateRepository, CommandContext } from '../../platform/event-sourcing/aggregate-repository';
import { commandMetadata } from '../../platform/event-sourcing/command-metadata';
import { ReadYourWrites } from '../../platform/projections/read-your-writes';
import { contractorWalletDecider, MAX_WRONG_WALLET_CODES } from '../domain/contractor-wallet.decider';
import { contractorWalletStreamId } from '../domain/contractor-wallet.events';
import { WalletCodeInvalidError, WalletCodeLimitError } from '../domain/contractor-wallet.errors';
import { WalletCodes } from './wallet-codes';

export interface VerifiedWalletView {
  walletEmail: string;
  verifiedAt: string;
}

export class VerifyWalletMessage extends Command<VerifiedWalletView> {
  constructor(
    readonly userId: string,
    readonly code: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/**
 * POST /api/commerce/me/wallet/verify: the code emailed to the pending wallet makes it the wallet on file.
 * A wrong code is recorded (it counts towards the lock) and then answered as 422 WALLET_CODE_INVALID.
 */
@CommandHandler(VerifyWalletMessage)
export class VerifyWalletHandler implements ICommandHandler<VerifyWalletMessage> {
  constructor(
    private readonly aggregates: AggregateRepository,
    private readonly codes: WalletCodes,
    private readonly readYourWrites: ReadYourWrites,
    private readonly outbox: Outbox,
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, code, context }: VerifyWalletMessage): Promise<VerifiedWalletView> {
    const stream = contractorWalletStreamId(userId);
    const { state } = await this.aggregates.load(stream, contractorWalletDecider);
    const codeHash = this.codes.hash(userId, state.pending?.email ?? '', code);
    const result = await this.aggregates.handle(stream, contractorWalletDecider, { type: 'Verify', data: { codeHash }, metadata: commandMetadata(this.clock, context) }, context);
    await this.readYourWrites.after(result);
    const rejected = result.events.find((e) => e.type === 'contractor_wallet.code_rejected');
    if (rejected) {
      if (rejected.data.lockedUntil !== null) throw new WalletCodeLimitError(`Too many wrong codes; try again after ${rejected.data.lockedUntil}`, rejected.data.lockedUntil);
      throw new WalletCodeInvalidError(MAX_WRONG_WALLET_CODES - rejected.data.failedAttempts);
    }
    const wallet = result.state.wallet!;
    await this.tellTheAccount(userId, wallet.email, wallet.verifiedAt);
    return { walletEmail: wallet.email, verifiedAt: wallet.verifiedAt };
  }

  /**
   * The code proves the wallet, not the person: a session taken over could point future withdrawals at a
   * wallet its thief holds. The account's own address hears of every change at once, as banks do.
   */
  private async tellTheAccount(userId: string, walletEmail: string, verifiedAt: string): Promise<void> {
    const to = await userEmail(this.documents, userId);
    if (to === null) return;
    await this.outbox.send({
      id: newId('evt', Date.parse(verifiedAt)),
      to,
      subject: 'Your Paysplit earnings now go to a new wallet',
      body: `From now on, withdrawals of your Paysplit earnings go to ${walletEmail}; withdrawals already on their way are not affected. If you did not make this change, sign in, change your wallet back and reset your password at once.`,
      link: '',
      sentAt: verifiedAt,
    });
  }
}
