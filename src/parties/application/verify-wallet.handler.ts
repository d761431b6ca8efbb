import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../platform/clock/clock';
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
    return { walletEmail: result.state.wallet!.email, verifiedAt: result.state.wallet!.verifiedAt };
  }
}
